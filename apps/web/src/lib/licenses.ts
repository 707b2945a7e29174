/** Licenses as card metadata names them (the public hub's license ids), the most used first. */
export const LICENSES: Array<[string, string]> = [
  ["apache-2.0", "Apache 2.0"],
  ["mit", "MIT"],
  ["llama3.1", "Llama 3.1"],
  ["llama3.2", "Llama 3.2"],
  ["llama3.3", "Llama 3.3"],
  ["gemma", "Gemma"],
  ["openrail", "OpenRAIL"],
  ["creativeml-openrail-m", "CreativeML OpenRAIL-M"],
  ["cc-by-4.0", "CC BY 4.0"],
  ["cc-by-nc-4.0", "CC BY-NC 4.0"],
  ["bsd-3-clause", "BSD 3-Clause"],
  ["other", "Other"],
];
