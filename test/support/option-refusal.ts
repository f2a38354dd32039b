import { expect } from 'vitest';
import { InvalidOptionsError } from '../../src/errors.js';

/** The `InvalidOptionsError` (code INVALID_OPTIONS) that `make` throws; fails the test when it throws none or another. */
export function refusal(make: () => unknown): InvalidOptionsError {
  try {
    make();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidOptionsError);
    expect((error as InvalidOptionsError).code).toBe('INVALID_OPTIONS');
    return error as InvalidOptionsError;
  }
  throw new Error('no error was thrown');
}
