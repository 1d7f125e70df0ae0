import { spawnSync } from 'node:child_process';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The official Python client the tests drive, pinned (pip installs it from the machine's index or wheel mirror). */
export const OPENAI_PYTHON_VERSION = '3.22.1';

/**
 * A Python with the official `openai` package: a virtual environment kept under the temp folder
 * between runs (made once, in a folder of its own then renamed into place, so two test workers never
 * share a half-made one). `skip` says why there is none: no python3, no venv module, or pip could not
 * install the package.
 */
export function pythonWithOpenAi(): { python: string; skip?: undefined } | { python?: undefined; skip: string } {
  const dir = join(tmpdir(), `platform-tests-openai-python-${OPENAI_PYTHON_VERSION}`);
  const python = join(dir, 'bin', 'python');
  const works = (py: string) => spawnSync(py, ['-c', 'import openai'], { encoding: 'utf8' }).status === 0;
  if (existsSync(python) && works(python)) return { python };
  if (existsSync(dir)) rmSync(dir, { recursive: true, force: true }); // left broken (renamed into place whole, so not by a run of these tests)
  if (spawnSync('python3', ['--version']).status !== 0) return { skip: 'python3 is not installed here' };
  const building = `${dir}.${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  const venv = spawnSync('python3', ['-m', 'venv', building], { encoding: 'utf8' });
  if (venv.status !== 0) return { skip: `python3 -m venv failed: ${lastLine(venv.stderr)}` };
  const pip = spawnSync(
    join(building, 'bin', 'python'),
    ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', `openai==${OPENAI_PYTHON_VERSION}`],
    {
      encoding: 'utf8',
      timeout: 300_000,
    },
  );
  if (pip.status !== 0) {
    rmSync(building, { recursive: true, force: true });
    return { skip: `pip could not install openai==${OPENAI_PYTHON_VERSION}: ${lastLine(pip.stderr || pip.stdout || String(pip.error))}` };
  }
  try {
    renameSync(building, dir);
  } catch {
    rmSync(building, { recursive: true, force: true }); // another worker's is in place
  }
  return works(python) ? { python } : { skip: `the virtual environment at ${dir} cannot import openai` };
}

function lastLine(text: string | undefined): string {
  return (text ?? '').trim().split('\n').at(-1) ?? '';
}
