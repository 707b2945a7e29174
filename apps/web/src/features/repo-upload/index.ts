export { EditFileForm } from "./edit-file-form.js";
export { UploadForm } from "./upload-form.js";
