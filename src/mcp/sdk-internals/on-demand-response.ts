/**
 * A `Response` whose body bytes are made only when something reads them.
 *
 * The plain JSON answers the Node bridge writes itself (`cachedListParts`) were given a
 * `ReadableStream` body made on first read, so that anything reading the response still saw its
 * bytes. On Node 20 a web stream costs ~20 µs to construct (`makeTransferable`), more than the rest
 * of the answer: measured with `bench/callgrind-http.mjs` (docs/performance.md, #30). This response
 * starts without a body (status and headers are the base class's) and builds the real one, a
 * `Response` over the same bytes, on the first read of its body through any of the body members;
 * from then on those members are the real response's.
 *
 * The class is defined on first use: on Node 20 the first read of the global `Response` loads
 * undici's fetch (~35 ms), which a stdio server never needs (the root bundle holds this module).
 */
export function onDemandResponse(bytes: () => Uint8Array, init: ResponseInit): Response {
  OnDemand ??= defineOnDemandResponse();
  return new OnDemand(bytes, init);
}

let OnDemand: ReturnType<typeof defineOnDemandResponse> | undefined;

function defineOnDemandResponse() {
  return class OnDemandResponse extends Response {
    readonly #init: ResponseInit;
    #bytes: (() => Uint8Array) | undefined;
    #real: Response | undefined;

    /** @param bytes - makes the body (called at most once, on the first read). */
    constructor(bytes: () => Uint8Array, init: ResponseInit) {
      super(null, init);
      this.#init = init;
      this.#bytes = bytes;
    }

    #made(): Response {
      if (!this.#real) {
        this.#real = new Response(this.#bytes!(), this.#init);
        this.#bytes = undefined;
      }
      return this.#real;
    }

    static {
      // The body members are declared as properties by the DOM types, so they are set on the prototype here.
      const made = (response: OnDemandResponse) => response.#made();
      const reads = ['arrayBuffer', 'blob', 'bytes', 'formData', 'json', 'text', 'clone'] as const;
      const members: PropertyDescriptorMap = {
        body: {
          get(this: OnDemandResponse) {
            return made(this).body;
          },
        },
        bodyUsed: {
          get(this: OnDemandResponse) {
            return this.#real?.bodyUsed ?? false;
          },
        },
      };
      for (const name of reads) {
        members[name] = {
          value(this: OnDemandResponse) {
            const real = made(this) as unknown as Record<string, () => unknown>;
            return real[name]!();
          },
          writable: true,
          configurable: true,
        };
      }
      for (const name of ['body', 'bodyUsed']) members[name]!.configurable = true;
      Object.defineProperties(OnDemandResponse.prototype, members);
    }
  };
}
