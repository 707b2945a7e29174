import { TemplateRuntimeError } from "../errors.js";
import { eq } from "./operators.js";
import { PyCallable, RuntimeObject, Undefined } from "./values.js";

const NOT_SET = Symbol("not set");

/** The `loop` variable inside `{% for %}`. One instance per loop run; `index0` advances in place. */
export class LoopContext extends RuntimeObject {
  index0 = 0;
  private cycler: PyCallable | null = null;
  private changer: PyCallable | null = null;
  private lastValue: unknown = NOT_SET;

  constructor(
    readonly items: unknown[],
    readonly depth0: number,
    /** Renders the loop body over new items one level deeper (recursive loops only). */
    readonly recurse: ((items: unknown) => string) | null,
  ) {
    super();
  }

  attr(name: string): unknown {
    const i = this.index0;
    const length = this.items.length;
    switch (name) {
      case "index":
        return i + 1;
      case "index0":
        return i;
      case "revindex":
        return length - i;
      case "revindex0":
        return length - i - 1;
      case "first":
        return i === 0;
      case "last":
        return i === length - 1;
      case "length":
        return length;
      case "depth":
        return this.depth0 + 1;
      case "depth0":
        return this.depth0;
      case "previtem":
        return i > 0 ? this.items[i - 1] : new Undefined("there is no previous item");
      case "nextitem":
        return i < length - 1 ? this.items[i + 1] : new Undefined("there is no next item");
      case "cycle":
        this.cycler ??= new PyCallable("cycle", (args) => {
          if (args.length === 0) throw new TemplateRuntimeError("no items for cycling given");
          return args[this.index0 % args.length];
        });
        return this.cycler;
      case "changed":
        this.changer ??= new PyCallable("changed", (args) => {
          const value = args.length === 1 ? args[0] : args;
          if (this.lastValue !== NOT_SET && eq(this.lastValue, value)) return false;
          this.lastValue = value;
          return true;
        });
        return this.changer;
      default:
        return new Undefined(`'LoopContext object' has no attribute '${name}'`);
    }
  }
}
