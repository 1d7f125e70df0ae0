#!/usr/bin/env node
// The project's own small JSON tool for shell scripts (docs/tour.sh), so that no jq is needed:
//
//   node scripts/json.mjs <path>...                 prints the value at each path of the JSON on stdin
//   node scripts/json.mjs <path> --set <path>=<v>   prints the value at <path> with fields changed (repeatable)
//
// A path is dot-separated; numbers index arrays (`data.0.id`); no path (or `.`) is the whole document.
// Strings print as they are, anything else as JSON; several paths print on one line, separated by spaces.
// A --set value that parses as JSON (a number, true, an object…) is taken as JSON, anything else as a string.
// A path that leads nowhere is an error (exit 1), so a script stops instead of going on with nothing.
import { readFileSync } from 'node:fs';

function fail(message) {
  console.error(`json: ${message}`);
  process.exit(1);
}

function segments(path) {
  return path === '' || path === '.' ? [] : path.split('.');
}

function get(value, path) {
  let current = value;
  for (const key of segments(path)) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key)) fail(`no value at ${path}`);
    current = current[key];
  }
  return current;
}

function set(value, path, replacement) {
  const keys = segments(path);
  if (keys.length === 0) return replacement;
  const parent = get(value, keys.slice(0, -1).join('.'));
  if (parent === null || typeof parent !== 'object') fail(`cannot set ${path}: its parent is not an object`);
  parent[keys[keys.length - 1]] = replacement;
  return value;
}

function parseValue(text) {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const paths = [];
const changes = [];
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--set') {
    const change = args[++i] ?? fail('--set needs <path>=<value>');
    const eq = change.indexOf('=');
    if (eq < 1) fail(`--set needs <path>=<value>, not ${JSON.stringify(change)}`);
    changes.push([change.slice(0, eq), parseValue(change.slice(eq + 1))]);
  } else paths.push(args[i]);
}
if (changes.length > 0 && paths.length > 1) fail('--set works on one path');

let document;
try {
  document = JSON.parse(readFileSync(0, 'utf8'));
} catch (err) {
  fail(`stdin is not JSON (${err.message})`);
}

const values = (paths.length > 0 ? paths : ['.']).map((path) => get(document, path));
if (changes.length > 0) values[0] = changes.reduce((value, [path, replacement]) => set(value, path, replacement), values[0]);
console.log(values.map((value) => (typeof value === 'string' ? value : JSON.stringify(value))).join(' '));
