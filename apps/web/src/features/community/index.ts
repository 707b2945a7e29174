export { DiscussionList } from "./discussion-list.js";
export { DiscussionView } from "./discussion-view.js";
