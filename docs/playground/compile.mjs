// Compile Python to bytecode ahead of time for the playground page, with the pinned Pyodide.
//
// The browser compiles every module it imports from source, and on two busy cores that is
// most of the page's load: Pyodide's standard library comes as source, and so do the
// wheels of scopa and attrs. This script runs the Pyodide of node_modules (the npm package
// pinned here) under node, so that the bytecode is that of the Python the page runs, and
// writes zips of bytecode alone (and of the files that are not modules):
//
//   node compile.mjs stdlib OUT.zip            Pyodide's standard library, compiled: the
//                                              page's python_stdlib.zip (docs/playground/
//                                              install runs it)
//   node compile.mjs wheels OUT.zip WHEEL...   the wheels' files as installed, compiled: the
//                                              page unpacks it into site-packages (the
//                                              docs build runs it)
//
// The bytecode keeps the modules' paths where the page loads them, so that tracebacks
// name them as before, and is not checked against any source: none is left.
import { readFileSync, writeFileSync } from "node:fs";
import { loadPyodide } from "./node_modules/pyodide/pyodide.mjs";

const [kind, out, ...wheels] = process.argv.slice(2);
if (!["stdlib", "wheels"].includes(kind) || !out || (kind === "wheels") !== wheels.length > 0) {
  console.error("usage: node compile.mjs stdlib OUT.zip | wheels OUT.zip WHEEL...");
  process.exit(2);
}
const pyodide = await loadPyodide();
const work = "/tmp/compiled";
pyodide.FS.mkdirTree(work);
for (const wheel of wheels) {
  pyodide.unpackArchive(new Uint8Array(readFileSync(wheel)), "wheel", { extractDir: work });
}
pyodide.globals.set("kind", kind);
pyodide.runPython(`
import compileall, os, py_compile, sys, zipfile

work = "/tmp/compiled"
if kind == "stdlib":
    where = next(path for path in sys.path if path.endswith(".zip"))
    with zipfile.ZipFile(where) as source:
        source.extractall(work)
else:
    where = next(path for path in sys.path if path.endswith("site-packages"))
if not compileall.compile_dir(
    work,
    ddir=where,
    quiet=1,
    legacy=True,
    invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
):
    raise SystemExit("a module did not compile")
with zipfile.ZipFile("/tmp/compiled.zip", "w", zipfile.ZIP_DEFLATED) as compiled:
    for folder, _, files in sorted(os.walk(work)):
        for name in sorted(files):
            if not name.endswith(".py"):
                path = os.path.join(folder, name)
                compiled.write(path, os.path.relpath(path, work))
`);
writeFileSync(out, pyodide.FS.readFile("/tmp/compiled.zip"));
