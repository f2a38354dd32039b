import type { RequestPipeline } from './request-pipeline.js';

/** Each server's request pipeline, reachable by the toolkit's own modules (and tests) without public API. */
const pipelines = new WeakMap<object, RequestPipeline>();

/** Called once by the `BaseMcpServer` constructor. */
export function setServerPipeline(server: object, pipeline: RequestPipeline): void {
  pipelines.set(server, pipeline);
}

/**
 * The request pipeline of `server` (where `server.use()` of issue #26 will add its stages).
 * @throws TypeError when `server` is not a `BaseMcpServer`.
 */
export function serverPipeline(server: object): RequestPipeline {
  const pipeline = pipelines.get(server);
  if (!pipeline) throw new TypeError('Expected an mcp-toolkit server (an instance of a BaseMcpServer subclass).');
  return pipeline;
}
