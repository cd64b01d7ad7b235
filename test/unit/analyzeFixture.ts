// What the analyze tests share: a handler with one known finding, a temp project writer, and
// the CLI run as a process.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { bundles } from './bundles';

/** A request handler sending a hydrated mongoose read: mongoose-missing-lean at 6:18-6:31 (1-based). */
export const LEAN_HANDLER = [
  "const express = require('express');",
  "const mongoose = require('mongoose');",
  "const Task = mongoose.model('Task', new mongoose.Schema({ title: String }));",
  'const app = express();',
  "app.get('/tasks', async (req, res) => {",
  '  res.json(await Task.find({}));',
  '});',
  'app.listen(3000);',
  '',
].join('\n');

export const LEAN_MESSAGE =
  'Task.find() hydrates full mongoose documents that are only sent with res.json() while handling a request; add .lean().';

/** Writes `files` (path -> text) under a new temp folder and returns it. */
export function writeProject(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'hotframe-analyze-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

export async function analyze(cwd: string, ...args: string[]): Promise<Run> {
  const { cli } = await bundles();
  const run = spawnSync(process.execPath, [cli, 'analyze', ...args], { cwd, encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/**
 * A .cpuprofile of 100 samples of 1 ms: 30 on line 6 of `hotFile` (LEAN_HANDLER's finding, inside
 * the arrow function that starts on line 5) and 70 on line 1 of `coldFile`.
 */
export function writeLeanProfile(path: string, hotFile: string, coldFile: string): void {
  const frame = (functionName: string, file: string, lineNumber: number, columnNumber: number) => ({
    functionName,
    scriptId: '1',
    url: pathToFileURL(file).href,
    lineNumber,
    columnNumber,
  });
  const nodes = [
    { id: 1, callFrame: { functionName: '(root)', scriptId: '0', url: '', lineNumber: -1, columnNumber: -1 }, hitCount: 0, children: [2, 3] },
    { id: 2, callFrame: frame('', hotFile, 4, 24), hitCount: 30, positionTicks: [{ line: 6, ticks: 30 }], children: [] },
    { id: 3, callFrame: frame('elsewhere', coldFile, 0, 0), hitCount: 70, positionTicks: [{ line: 1, ticks: 70 }], children: [] },
  ];
  const samples = [...Array<number>(30).fill(2), ...Array<number>(70).fill(3)];
  writeFileSync(path, JSON.stringify({ nodes, startTime: 0, endTime: 100_000, samples, timeDeltas: samples.map(() => 1000) }));
}

/** A stats timer spawning without `env`: spawn-without-env at 3:10-3:29 (1-based), inside `stats` (line 2). */
/** Seed 003: a stats timer of a module that serves requests (the env copy is on a serving path). */
export const SPAWN_TIMER = "const { execSync } = require('child_process');\nfunction stats() {\n  return execSync('free -m');\n}\nsetInterval(stats, 1000);\nrequire('http').createServer((req, res) => res.end()).listen(8080);\n";

/**
 * A .cpuprofile of 100 samples of 1 ms: 60 in node's normalizeSpawnArguments called from `stats`
 * in `file` (seed 003's signature, which the profile turns into a spawn-env-walk insight) and 40 idle.
 */
export function writeSpawnProfile(path: string, file: string): void {
  const nodes = [
    { id: 1, callFrame: { functionName: '(root)', scriptId: '0', url: '', lineNumber: -1, columnNumber: -1 }, hitCount: 0, children: [2, 4] },
    { id: 2, callFrame: { functionName: 'stats', scriptId: '1', url: pathToFileURL(file).href, lineNumber: 1, columnNumber: 14 }, hitCount: 0, children: [3] },
    { id: 3, callFrame: { functionName: 'normalizeSpawnArguments', scriptId: '2', url: 'node:child_process', lineNumber: 540, columnNumber: 33 }, hitCount: 60, children: [] },
    { id: 4, callFrame: { functionName: '(idle)', scriptId: '0', url: '', lineNumber: -1, columnNumber: -1 }, hitCount: 40, children: [] },
  ];
  const samples = [...Array<number>(60).fill(3), ...Array<number>(40).fill(4)];
  writeFileSync(path, JSON.stringify({ nodes, startTime: 0, endTime: 100_000, samples, timeDeltas: samples.map(() => 1000) }));
}
