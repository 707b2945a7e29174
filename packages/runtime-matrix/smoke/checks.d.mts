/** Types of checks.mjs (plain JavaScript so that every runtime runs it as is) for the TypeScript harness. */
export interface MatrixModel {
  id: string;
  providerId: string;
}
export declare const MATRIX_MODELS: {
  chat: MatrixModel;
  image: MatrixModel;
  slowChat: MatrixModel & { provider: string };
};
export interface CheckResult {
  name: string;
  ok: boolean;
  detail: string;
  ms: number;
}
export interface RuntimeReport {
  runtime: string;
  version: string;
  results: CheckResult[];
}
export declare function runChecks(simUrl: string, runtime: string): Promise<CheckResult[]>;
export declare function runtimeVersion(): string;
export declare const RESULT_MARKER: string;
export declare function resultLine(runtime: string, version: string, results: CheckResult[]): string;
