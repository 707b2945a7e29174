import { TASK_CASES } from "./__fixtures__/exec-cases.js";
import { describeSnippetExecution } from "./testing/exec-suite.js";

describeSnippetExecution({ title: "task snippets run against provider-sim", cases: TASK_CASES });
