import type { RequestPipeline } from './request-pipeline.js';
import { serverSlot } from '../../server-slot.js';

const slot = serverSlot<RequestPipeline>();

/** Called once by the `BaseMcpServer` constructor. */
export const setServerPipeline: (server: object, value: RequestPipeline) => void = slot.set;

/**
 * The request pipeline of `server` (where `server.use()` adds its stages).
 * @throws TypeError when `server` is not a `BaseMcpServer`.
 */
export const serverPipeline: (server: object) => RequestPipeline = slot.of;
