// The tool inventory every system under test registers: `count` tools with the same
// small 3-field input schema; the first one is `echo` (the one the workloads call).
import { z } from 'zod';

/** Name of the i-th tool. */
export const toolName = (i) => (i === 0 ? 'echo' : `echo_${i}`);

export const DESCRIPTION = 'Echoes text back.';

/** A fresh zod shape of the 3-field schema (text required, count and loud optional). */
export const shape = () => ({ text: z.string(), count: z.number().optional(), loud: z.boolean().optional() });

/** The same schema as a zod object. */
export const schema = () => z.object(shape());

/** The tool's work: nothing but echoing `text`. */
export const echo = ({ text }) => text;
