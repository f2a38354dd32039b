// mcp-toolkit with three pass-through middleware (bench/middleware-overhead.mjs): the same servers
// as ours.mjs, plus `server.use()` three times with middleware that only call next().
import * as ours from './ours.mjs';

function useThree(server) {
  server.use((_context, next) => next());
  server.use(async (_context, next) => await next());
  server.use((context, next) => (context.state.set('seen', true), next()));
}

export function startHttp(config) {
  return ours.startHttp({ ...config, beforeStart: useThree });
}

export function startStdio(config) {
  return ours.startStdio({ ...config, beforeStart: useThree });
}
