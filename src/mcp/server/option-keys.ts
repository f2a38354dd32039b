// The option keys every server class accepts, checked against the option types by the compiler
// (see optionKeys), so that a misspelled or foreign option fails in the constructor. Each server
// class lists its own keys beside its options type, after these.
import { optionKeys } from '../../known-options.js';
import type { BaseMcpServerOptions } from './server-options.js';

/** The keys of {@link BaseMcpServerOptions}, for subclasses to spread into their own lists. */
export const BASE_OPTION_NAMES = [
  'logger',
  'documents',
  'sessionTools',
  'requestStateKey',
  'resourcePageSize',
  'cluster',
  'toolState',
  'tasks',
  'observer',
  'defaultToolTimeoutMs',
] as const;

/** Every key of {@link BaseMcpServerOptions} (for subclasses that add none). */
export const BASE_OPTION_KEYS = optionKeys<BaseMcpServerOptions>()(BASE_OPTION_NAMES);
