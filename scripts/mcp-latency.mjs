#!/usr/bin/env node
// scripts/mcp-latency.mjs - Round-trip latency of `kbench mcp` tools through
// the official TypeScript SDK client (docs/mcp.md, "Latency").
//
// Starts one server on a copy of tasks/ in a temporary workspace, warms it
// up (5 calls per tool), then times N calls of verify and compile per task
// from callTool to its result, and prints the medians (and min, max) as a
// markdown table, beside the median time the server reports for the work
// itself (times_ms), so that the protocol's share shows. compile targets sm_90a when ptxas is on PATH or in
// /usr/local/cuda/bin, else host.
//
// usage: node scripts/mcp-latency.mjs [--kbench PATH] [--runs N] [--tasks a,b]
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const kbench = flag('--kbench', join(root, 'build', 'bin', 'kbench'));
const runs = Number(flag('--runs', '20'));
const tasks = flag('--tasks', 'row_sum,row_softmax,layernorm,gelu_bias,linear_bias_relu').split(',');
const ptxas = (process.env.PATH ?? '').split(':').some((d) => existsSync(join(d, 'ptxas'))) ||
  existsSync('/usr/local/cuda/bin/ptxas');
const target = ptxas ? 'sm_90a' : 'host';

const workspace = mkdtempSync(join(tmpdir(), 'kbench-mcp-latency-'));
cpSync(join(root, 'tasks'), join(workspace, 'tasks'), { recursive: true });
const env = { ...process.env };
if (ptxas && !env.PATH.includes('/usr/local/cuda/bin')) env.PATH += ':/usr/local/cuda/bin';
const client = new Client({ name: 'kbench-latency', version: '1.0.0' });
await client.connect(new StdioClientTransport({ command: kbench, args: ['mcp', '--workspace', workspace], env }));
await client.listTools(); // the SDK caches the output schemas and validates every result

async function time(name, task) {
  const start = performance.now();
  const result = await client.callTool({ name, arguments: name === 'compile' ? { task, target } : { task } });
  const ms = performance.now() - start;
  if (result.isError) throw new Error(`${name} ${task}: ${result.content[0].text}`);
  const t = result.structuredContent.times_ms;
  return [ms, name === 'compile' ? t.total : t.parse + t.schedule + t.verify];
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

console.log(`| task | verify round trip, median (min-max) ms | verify in the server | compile ${target} round trip, median (min-max) ms | compile in the server |`);
console.log('|---|---|---|---|---|');
for (const task of tasks) {
  const row = [task];
  for (const tool of ['verify', 'compile']) {
    for (let i = 0; i < 5; ++i) await time(tool, task);
    const times = [], inside = [];
    for (let i = 0; i < runs; ++i) {
      const [ms, server] = await time(tool, task);
      times.push(ms);
      inside.push(server);
    }
    row.push(`${median(times).toFixed(1)} (${Math.min(...times).toFixed(1)}-${Math.max(...times).toFixed(1)})`);
    row.push(median(inside).toFixed(1));
  }
  console.log(`| ${row.join(' | ')} |`);
}
console.log(`\n${runs} timed calls per tool and task after 5 warm-up calls, one warm server, ${new Date().toISOString()}`);
await client.close();
rmSync(workspace, { recursive: true, force: true });
