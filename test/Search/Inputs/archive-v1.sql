-- An archive of schema version 1 (kbench search before 2026-12-01), empty.
CREATE TABLE run (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  task TEXT NOT NULL, target TEXT NOT NULL, seed INTEGER NOT NULL,
  space_hash TEXT NOT NULL, fitness TEXT NOT NULL, evaluator TEXT NOT NULL,
  round_size INTEGER NOT NULL, budget INTEGER NOT NULL,
  started_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')));
CREATE TABLE candidates (
  id INTEGER PRIMARY KEY,
  round INTEGER NOT NULL, idx INTEGER NOT NULL,
  knobs TEXT NOT NULL, script TEXT NOT NULL, parents TEXT NOT NULL,
  operator TEXT NOT NULL, stage TEXT NOT NULL,
  ir_hash TEXT, ptx_hash TEXT, duplicate_of TEXT,
  diagnostics TEXT NOT NULL, descriptors TEXT NOT NULL, cell TEXT,
  bundle TEXT, compile_ms REAL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  eval_status TEXT, verdict TEXT, fitness REAL, fitness_kind TEXT,
  candidate_us REAL, eager_us REAL, torch_compile_us REAL,
  percent_of_floor REAL, report TEXT, eval_ms REAL, evaluated_at TEXT,
  UNIQUE (round, idx));
CREATE INDEX candidates_ir_hash ON candidates (ir_hash);
CREATE TABLE rounds (
  round INTEGER PRIMARY KEY,
  finished_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')));
CREATE TABLE schema_version (version INTEGER NOT NULL);
INSERT INTO schema_version VALUES (1);
