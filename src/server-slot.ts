/**
 * A value kept per `BaseMcpServer` for the toolkit's own modules (its view factory, request
 * pipeline, transport host) without making it public API: set once by the server's constructor,
 * read by the modules that need it.
 */
export interface ServerSlot<T> {
  /** Called once by the `BaseMcpServer` constructor. */
  set(server: object, value: T): void;
  /**
   * The value of `server`.
   * @throws TypeError when `server` is not a `BaseMcpServer` (nothing was set for it).
   */
  of(server: object): T;
}

/** A new {@link ServerSlot}, held in a WeakMap so a server that is dropped is collected. */
export function serverSlot<T>(): ServerSlot<T> {
  const values = new WeakMap<object, T>();
  return {
    set: (server, value) => void values.set(server, value),
    of: (server) => {
      const value = values.get(server);
      if (value === undefined) {
        throw new TypeError('Expected an mcp-toolkit server (an instance of a BaseMcpServer subclass).');
      }
      return value;
    },
  };
}
