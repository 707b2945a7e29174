export { CommitList } from "./commit-list.js";
export { CommitView } from "./commit-view.js";
export { DiffView } from "./diff-view.js";
export { FileTree } from "./file-tree.js";
export { FileView } from "./file-view.js";
