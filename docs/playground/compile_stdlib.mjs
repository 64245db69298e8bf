// Compile Pyodide's standard library ahead of time, for the playground page.
//
// Pyodide's python_stdlib.zip holds the standard library as source, which the browser
// compiles to bytecode at every start: on two busy cores that is most of the page's
// load. This script runs the Pyodide of node_modules (the pinned npm package) under
// node, compiles every module of its standard library with that same Python, and writes
// a zip of the bytecode alone (and the files that are not modules), in place of the
// source: runtime/python_stdlib-VERSION.zip, which the docs build serves as the page's
// python_stdlib.zip. docs/playground/install runs it.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide, version } from "./node_modules/pyodide/pyodide.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const pyodide = await loadPyodide();
pyodide.runPython(`
import compileall, os, py_compile, shutil, sys, zipfile

stdlib = next(path for path in sys.path if path.endswith(".zip"))
work = "/tmp/stdlib"
with zipfile.ZipFile(stdlib) as source:
    source.extractall(work)
    names = [info.filename for info in source.infolist() if not info.is_dir()]
# The bytecode keeps the modules' paths in the zip, so that tracebacks name them as before;
# unchecked: no source is left to check it against.
compiled = compileall.compile_dir(
    work,
    ddir=stdlib,
    quiet=1,
    legacy=True,
    invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
)
if not compiled:
    raise SystemExit("a module of the standard library did not compile")
with zipfile.ZipFile("/tmp/python_stdlib.zip", "w", zipfile.ZIP_DEFLATED) as bytecode:
    for name in sorted(names):
        stored = name[:-3] + ".pyc" if name.endswith(".py") else name
        bytecode.write(os.path.join(work, stored), stored)
shutil.rmtree(work)
`);
const out = join(here, "runtime");
mkdirSync(out, { recursive: true });
const compiled = pyodide.FS.readFile("/tmp/python_stdlib.zip");
writeFileSync(join(out, `python_stdlib-${version}.zip`), compiled);
