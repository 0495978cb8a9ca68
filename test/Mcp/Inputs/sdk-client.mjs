// Drives `kbench mcp` end to end through the official TypeScript SDK client
// (@modelcontextprotocol/sdk, pinned in package-lock.json), and through raw
// lines for what the SDK cannot send (a malformed message, an older protocol
// revision). Prints one "ok <what>" line per check; any failed check throws
// and exits non-zero.
//
// usage: node sdk-client.mjs KBENCH WORKSPACE
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, McpError } from '@modelcontextprotocol/sdk/types.js';

const [kbench, workspace] = process.argv.slice(2);
const ok = (what) => console.log(`ok ${what}`);

const client = new Client({ name: 'kbench-test', version: '1.0.0' });
// The SDK passes the server a short list of variables only; the sanitizers'
// options go along too, so an ASan build (scripts/sanitize-tests.sh) runs
// with the suppressions and options it needs.
const sanitizerEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => /^(ASAN|LSAN|UBSAN)_OPTIONS$/.test(k)));
const transport = new StdioClientTransport({ command: kbench, args: ['mcp', '--workspace', workspace], stderr: 'pipe',
                                             env: { ...getDefaultEnvironment(), ...sanitizerEnv } });
let serverLog = '';
transport.stderr?.on('data', (d) => { serverLog += d; });
// A failed check shows what the server said on stderr (a crash report, say).
process.on('exit', (code) => { if (code !== 0) process.stderr.write(`kbench mcp stderr:\n${serverLog}`); });
await client.connect(transport);
ok(`connected, the client asked for ${LATEST_PROTOCOL_VERSION}`);
assert.equal(client.getServerVersion().name, 'kbench');

const call = (name, args, options) => client.callTool({ name, arguments: args }, undefined, options);
const text = (result) => result.content.map((c) => c.text).join('\n');
async function expectError(name, args, pattern, what) {
  const result = await call(name, args);
  assert.equal(result.isError, true, `${name} ${what}: expected isError, got ${text(result).slice(0, 300)}`);
  assert.match(text(result), pattern, `${name} ${what}`);
  ok(`${name} ${what}: ${text(result).split('\n')[0]}`);
}

// tools/list: every tool has an input and an output schema.
const { tools } = await client.listTools();
assert.deepEqual(tools.map((t) => t.name).sort(), ['apply_schedule', 'cancel_job', 'compile', 'describe_task', 'evaluate',
  'job_status', 'list_tasks', 'search_best', 'search_start', 'search_status', 'verify']);
for (const tool of tools) {
  assert.equal(tool.inputSchema.type, 'object', tool.name);
  assert.equal(tool.outputSchema.type, 'object', tool.name);
}
ok(`tools/list: ${tools.length} tools, each with input and output schemas`);

// list_tasks
let result = await call('list_tasks', {});
const names = result.structuredContent.tasks.map((t) => t.name);
assert.ok(names.includes('row_sum') && !names.includes('evil'), names.join(','));
ok(`list_tasks: ${names.join(', ')}`);
await expectError('list_tasks', { bogus: 1 }, /argument 'bogus': unknown/, 'with an unknown argument');

// describe_task
result = await call('describe_task', { task: 'row_sum' });
assert.equal(result.structuredContent.contract.name, 'row_sum');
assert.match(result.structuredContent.kernel, /tile\.kernel @row_sum/);
assert.match(result.structuredContent.default_schedule, /transform\.tile\.set_params/);
assert.ok(result.structuredContent.knob_space.knobs.length > 0);
ok(`describe_task: contract, kernel, default schedule, ${result.structuredContent.knob_space.knobs.length} knobs (${result.structuredContent.knob_space.source} space of ${result.structuredContent.knob_space.size} points)`);
await expectError('describe_task', { task: 'nope' }, /unknown task 'nope'/, 'of an unknown task');
await expectError('describe_task', { task: '../tasks/row_sum' }, /is not a task name/, 'of a path');
await expectError('describe_task', { task: 'evil' }, /resolves outside the workspace/, 'of a task linked from outside the workspace');
await expectError('describe_task', {}, /missing argument 'task'/, 'without a task');

// apply_schedule
const schedule = (body) => `module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    ${body}
    transform.yield
  }
}`;
result = await call('apply_schedule', { task: 'row_sum', schedule: schedule('transform.tile.set_num_warps %k 8 : !transform.any_op') });
assert.match(result.structuredContent.ir, /num_warps = 8/);
ok('apply_schedule: the scheduled IR has num_warps = 8');
await expectError('apply_schedule', { task: 'row_sum', schedule: 'garbage' }, /the schedule does not parse\nschedule:1:1: error/, 'of a script that does not parse');
await expectError('apply_schedule', { task: 'row_sum', schedule: schedule('transform.tile.set_num_warps %k 3 : !transform.any_op') },
  /the schedule failed\nschedule:.*num_warps/, 'of an illegal knob');
await expectError('apply_schedule', { task: 'row_sum', schedule: schedule('transform.apply_registered_pass "canonicalize" to %k : (!transform.any_op) -> !transform.any_op') },
  /schedule refused: schedule:.*transform.apply_registered_pass is not accepted/, 'of a script that runs a pass');
await expectError('apply_schedule', { task: 'row_sum', schedule: 'x'.repeat(70000) }, /argument 'schedule': 70000 bytes; the limit is 65536/, 'of an oversized script');

// verify: proved, then a kernel whose tail is not padded (a witness).
const rowSum = (await call('describe_task', { task: 'row_sum' })).structuredContent.kernel;
result = await call('verify', { task: 'row_sum' });
assert.equal(result.structuredContent.proved, true);
ok('verify: row_sum is proved');
result = await call('verify', { task: 'row_sum', kernel: rowSum.replaceAll('pad(zero) : ', ': ').replaceAll(', pad = zero>', '>') });
assert.equal(result.isError, undefined, text(result));
assert.equal(result.structuredContent.proved, false);
const finding = result.structuredContent.findings[0];
assert.ok(finding.witness && finding.op_name, JSON.stringify(finding));
ok(`verify: refuted, ${finding.check} at ${finding.op_name}, witness ${JSON.stringify(finding.witness.dims)}`);
await expectError('verify', { task: 'row_sum', kernel: 'tile.kernel @k(' }, /the kernel does not parse\nkernel:1:/, 'of a kernel that does not parse');
await expectError('verify', { task: 'row_sum', kernel: '('.repeat(100000) }, /nested deeper than 48 levels/, 'of a deeply nested kernel');
await expectError('verify', { task: 'row_sum', kernel: 1 }, /argument 'kernel': expected a string, got an integer/, 'of a kernel that is not text');

// A kernel that tries to reach an external function is refused before anything runs.
const declared = rowSum.replace('func.func @main', 'func.func private @system(i64) -> i32\nfunc.func @main')
  .replace('  return\n', '  %arg = arith.constant 0 : i64\n  %ext = func.call @system(%arg) : (i64) -> i32\n  return\n');
await expectError('verify', { task: 'row_sum', kernel: declared }, /kernel refused: kernel:\d+:\d+: func.func @system is a declaration/, 'of a kernel calling an external function');
const viaLlvm = 'llvm.func @system(i64) -> i32\n' + rowSum.replace('  tile.return', '  %arg = arith.constant 0 : i64\n  %ext = llvm.call @system(%arg) : (i64) -> i32\n  tile.return');
await expectError('evaluate', { task: 'row_sum', kernel: viaLlvm, target: 'host' }, /kernel refused: kernel:1:1: llvm.func at the top of a kernel file/, 'of a kernel calling an external function through llvm.call');
const own = rowSum.replace('  tile.return', '  %arg = arith.constant 0 : i64\n  %ext = func.call @helper(%arg) : (i64) -> i32\n  tile.return') +
  '\nfunc.func @helper(%a: i64) -> i32 {\n  %z = arith.constant 0 : i32\n  return %z : i32\n}\n';
await expectError('evaluate', { task: 'row_sum', kernel: own, target: 'host' }, /kernel refused: kernel:\d+:\d+: func.func @helper is not @main/, 'of a kernel calling a function of its own');

// compile, with progress notifications.
const progress = [];
result = await call('compile', { task: 'row_sum', target: 'host' }, { onprogress: (p) => progress.push(p.message) });
assert.ok(result.structuredContent.shared_object_bytes > 0);
assert.ok(progress.length >= 2, progress.join(';'));
ok(`compile host: ${result.structuredContent.kernels.length} kernel, progress: ${progress.join('; ')}`);
if (process.env.KBENCH_TEST_PTXAS) {
  result = await call('compile', { task: 'row_sum' });
  const k = result.structuredContent.kernels[0];
  assert.ok(k.registers > 0 && result.structuredContent.ptx_bytes > 0, JSON.stringify(result.structuredContent));
  assert.equal(k.injected_wgmma_waits, 0, JSON.stringify(k));
  ok(`compile sm_90a: registers, spills ${k.spill_stores}+${k.spill_loads}, shared memory, PTX bytes`);
}
await expectError('compile', { task: 'row_sum', target: 'sm_80' }, /argument 'target': expected one of "sm_90a", "host"/, 'for an unknown target');

// evaluate, waiting for the result.
result = await call('evaluate', { task: 'row_sum', target: 'host', seeds: 1 });
assert.equal(result.structuredContent.state, 'done');
assert.equal(result.structuredContent.result.verdict, 'pass');
assert.deepEqual(result.structuredContent.result.errors, []);
ok(`evaluate: ${result.structuredContent.job} ${result.structuredContent.result.verdict}, ${result.structuredContent.result.summary.passed} cases passed`);
await expectError('evaluate', { task: 'row_sum', seeds: 0 }, /argument 'seeds': expected a value >= 1, got 0/, 'with 0 seeds');

// A verify is answered while an evaluate job runs; then the job is cancelled.
result = await call('evaluate', { task: 'row_sum', target: 'host', shapes: ['tune', 'heldout'], wait_s: 0 });
const job = result.structuredContent.job;
assert.equal(result.structuredContent.state, 'running');
const start = Date.now();
result = await call('verify', { task: 'row_sum' });
assert.equal(result.structuredContent.proved, true);
const verifyMs = Date.now() - start;
result = await call('job_status', { job });
assert.equal(result.structuredContent.state, 'running', JSON.stringify(result.structuredContent));
ok(`verify answered in ${verifyMs < 1000 ? 'under 1 s' : verifyMs + ' ms'} while evaluate job ${job} runs (${result.structuredContent.stage})`);
result = await call('cancel_job', { job });
assert.equal(result.structuredContent.state, 'cancelled', JSON.stringify(result.structuredContent));
result = await call('job_status', { job });
assert.equal(result.structuredContent.state, 'cancelled');
ok(`cancel_job: ${job} cancelled`);
await expectError('job_status', { job: 'e999' }, /unknown job 'e999'/, 'of an unknown job');
await expectError('cancel_job', {}, /missing argument 'job'/, 'without a job');

// A request cancelled by the client (notifications/cancelled) stops its job.
const abort = new AbortController();
const pending = call('evaluate', { task: 'row_sum', target: 'host', shapes: ['tune', 'heldout'] }, { signal: abort.signal });
setTimeout(() => abort.abort('test'), 1500); // after the kernel is scheduled and the job started
await assert.rejects(pending);
const next = `e${Number(job.slice(1)) + 1}`;
result = await call('job_status', { job: next, wait_s: 10 });
assert.equal(result.structuredContent.state, 'cancelled', JSON.stringify(result.structuredContent));
ok(`a cancelled evaluate request cancels its job ${next}`);

// search_start / search_status / search_best.
result = await call('search_start', { task: 'row_sum', target: 'host', budget: 2, round_size: 2, fitness: 'model' });
const search = result.structuredContent.search;
for (let i = 0; i < 600; ++i) {
  result = await call('search_status', { search });
  if (result.structuredContent.state !== 'running') break;
  await new Promise((r) => setTimeout(r, 200));
}
assert.equal(result.structuredContent.state, 'done', JSON.stringify(result.structuredContent));
assert.equal(result.structuredContent.evaluated, 2);
ok(`search_status: ${search} done, ${result.structuredContent.candidates} candidates, ${result.structuredContent.evaluated} evaluated`);
result = await call('search_best', { search });
assert.match(result.structuredContent.script, /transform\.tune\.knob/);
ok(`search_best: ${result.structuredContent.name} fitness ${result.structuredContent.fitness.toFixed(3)} (${result.structuredContent.fitness_kind})`);
result = await call('apply_schedule', { task: 'row_sum', schedule: result.structuredContent.script });
assert.equal(result.isError, undefined, text(result));
ok('the best schedule applies');
result = await call('describe_task', { task: 'row_sum' });
assert.equal(result.structuredContent.best_schedule.search, search);
ok('describe_task gives the searched best schedule');
await expectError('search_start', { task: 'row_sum', budget: 1000 }, /argument 'budget': expected a value <= 64/, 'with too large a budget');
await expectError('search_status', { search: 'e1' }, /unknown search 'e1'/, 'of an evaluate job');
await expectError('search_best', { search: 's99' }, /unknown search 's99'/, 'of an unknown search');

// An unknown tool is a protocol error.
await assert.rejects(call('no_such_tool', {}), (e) => e instanceof McpError && e.code === -32602 && /unknown tool 'no_such_tool'/.test(e.message));
ok('unknown tool: JSON-RPC error -32602');

// Resources.
const { resources } = await client.listResources();
assert.deepEqual(resources.map((r) => r.uri).sort(), ['kbench://docs/TileDialect.md', 'kbench://docs/schedules.md', 'kbench://docs/tile-ir.md']);
const doc = await client.readResource({ uri: 'kbench://docs/TileDialect.md' });
assert.match(doc.contents[0].text, /tile\.partition/);
await assert.rejects(client.readResource({ uri: 'kbench://docs/nope.md' }), (e) => e.code === -32002);
ok(`resources: ${resources.length} docs, an unknown uri is error -32002`);

// Still serving after every bad call.
await client.ping();
result = await call('verify', { task: 'row_sum' });
assert.equal(result.structuredContent.proved, true);
ok('still serving');
await client.close();

// Raw lines: the older revision, a malformed message, a batch, a request
// before initialize, deep nesting; the server answers each and keeps going.
async function raw(lines) {
  const child = spawn(kbench, ['mcp', '--workspace', workspace], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => { out += d; });
  for (const line of lines) child.stdin.write(line + '\n');
  child.stdin.end();
  await new Promise((r) => child.on('close', r));
  return out.trim().split('\n').map((l) => JSON.parse(l));
}
const init = (version, id = 1) => JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
const older = SUPPORTED_PROTOCOL_VERSIONS.find((v) => v < LATEST_PROTOCOL_VERSION);
let answers = await raw([init(older)]);
assert.equal(answers[0].result.protocolVersion, older);
ok(`initialize with ${older}: the server speaks ${older}`);
answers = await raw([init('2024-01-01')]);
assert.equal(answers[0].result.protocolVersion, LATEST_PROTOCOL_VERSION);
ok(`initialize with an unknown revision: the server offers ${LATEST_PROTOCOL_VERSION}`);
answers = await raw([
  JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  init(LATEST_PROTOCOL_VERSION, 2),
  '{"jsonrpc": "2.0", "id": 3, "method": ',
  '[{"jsonrpc": "2.0", "id": 4, "method": "ping"}]',
  '['.repeat(100000),
  JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'no/such/method' }),
  JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'ping' }),
]);
assert.equal(answers[0].error.code, -32600);
assert.match(answers[0].error.message, /send initialize first/);
assert.equal(answers[2].error.code, -32700);
assert.equal(answers[3].error.code, -32600);
assert.match(answers[3].error.message, /batches are not supported/);
assert.match(answers[4].error.message, /nested deeper than 64 levels/);
assert.equal(answers[5].error.code, -32601);
assert.deepEqual(answers[6], { jsonrpc: '2.0', id: 6, result: {} });
ok('raw: request before initialize, malformed JSON, a batch, deep nesting, an unknown method are errors; ping still answers');
console.log('all passed');
