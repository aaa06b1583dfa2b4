// Loaded with `node --require`: makes `require("vscode")` load our stub, as VS Code's host would load the real one.
import Module = require("module");
import * as path from "path";

const stub = path.join(__dirname, "vscode.js");
type Resolve = (request: string, ...rest: unknown[]) => string;
const moduleWithResolve = Module as unknown as { _resolveFilename: Resolve };
const original = moduleWithResolve._resolveFilename;
moduleWithResolve._resolveFilename = function (request: string, ...rest: unknown[]): string {
  return request === "vscode" ? stub : original.call(this, request, ...rest);
};
