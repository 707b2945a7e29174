/**
 * `demoCopy` of a repository's info (not on the public hub): the repository is a demo copy of a catalogue
 * model, untouched since the hub made it. `original` is the model's page on huggingface.co; `sourceFigures`
 * are the downloads and likes counted there, never this hub's.
 */
export interface DemoCopyInfo {
  original: string;
  sourceFigures?: { source: string; downloads: number; likes: number };
}
