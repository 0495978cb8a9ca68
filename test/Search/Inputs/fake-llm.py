#!/usr/bin/env python3
"""A local stand-in for an OpenAI-compatible chat-completions endpoint, for
tests only (no network: it listens on 127.0.0.1).

Usage: fake-llm.py --mode MODE --log FILE -- COMMAND...
Starts the server on a free port, runs COMMAND with KBENCH_LLM_URL pointing at
it, and exits with COMMAND's status. Every request is appended to FILE as one
JSON line: {"authorization": header, "body": request}. MODE says how it
answers: good (a valid schedule in a ```mlir block), point (a valid schedule
that is a point of Inputs/row_sum-space.mlir), malformed (not JSON),
nochoices (JSON without choices), disallowed (a script with transform.print),
open (a knob left open), oversize (a 20 kB script), http500, slow (answers
after 5 s).
"""
import argparse
import http.server
import json
import os
import subprocess
import sys
import threading
import time

GOOD = """Here is a schedule:
```mlir
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 2 : !transform.any_op
    transform.tile.set_params %k {BR = 4} : !transform.any_op
    transform.yield
  }
}
```
"""
# A point of Inputs/row_sum-space.mlir (num_warps 2, BR 4, BN 256, the
# second "access" region's vector_width 4), written with plain ops.
POINT = GOOD.replace("transform.tile.set_params %k {BR = 4} : !transform.any_op",
                     "transform.tile.set_params %k {BR = 4, BN = 256} : !transform.any_op\n"
                     "    transform.tile.vector_width %k 4 : !transform.any_op")
DISALLOWED = GOOD.replace("    transform.yield\n", "    transform.print %k : !transform.any_op\n    transform.yield\n")
OPEN = GOOD.replace("transform.tile.set_num_warps %k 2 : !transform.any_op",
                    "%w = transform.tune.knob<\"num_warps\"> options = [1, 2] -> !transform.param<i64>\n"
                    "    transform.tile.set_num_warps %k %w : !transform.any_op")
OVERSIZE = GOOD.replace("```mlir\n", "```mlir\n" + "// padding\n" * 2000)


def reply(content):
    return json.dumps({"id": "fake", "object": "chat.completion",
                       "choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            with open(args.log, "a") as f:
                f.write(json.dumps({"path": self.path,
                                    "authorization": self.headers.get("Authorization"),
                                    "body": json.loads(body)}) + "\n")
            status, text = 200, None
            if args.mode == "good":
                text = reply(GOOD)
            elif args.mode == "point":
                text = reply(POINT)
            elif args.mode == "malformed":
                text = "{\"choices\": [ this is not json"
            elif args.mode == "nochoices":
                text = json.dumps({"error": None})
            elif args.mode == "disallowed":
                text = reply(DISALLOWED)
            elif args.mode == "open":
                text = reply(OPEN)
            elif args.mode == "oversize":
                text = reply(OVERSIZE)
            elif args.mode == "http500":
                status, text = 500, json.dumps({"error": {"message": "the model is overloaded"}})
            elif args.mode == "slow":
                time.sleep(5)
                text = reply(GOOD)
            data = text.encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (the timeout test)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    env = dict(os.environ, KBENCH_LLM_URL=f"http://127.0.0.1:{server.server_port}/v1/chat/completions")
    status = subprocess.call(command, env=env)
    server.shutdown()
    sys.exit(status)


if __name__ == "__main__":
    main()
