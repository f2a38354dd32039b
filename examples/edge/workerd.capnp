# workerd config for worker.ts (bundled to .build/worker.js by build-worker.mjs). No nodejs_compat flag.
# Run: workerd serve examples/edge/workerd.capnp --socket-addr http=127.0.0.1:8787
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [(name = "main", worker = .mcpWorker)],
  sockets = [(name = "http", address = "127.0.0.1:8787", http = (), service = "main")],
);

const mcpWorker :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed ".build/worker.js")],
  compatibilityDate = "2026-11-01",
  bindings = [(name = "ADMIN_TOKEN", text = "edge-admin-token")],
);
