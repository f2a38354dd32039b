import type { ClientKind, TestClient } from '../support/clients.js';

/** Server-side controls, as an app's settings UI would use them. */
export interface ServerControl {
  disable(name: string): Promise<void>;
  enable(name: string): Promise<void>;
  setDisabled(names: string[]): Promise<void>;
  /** Registers an extra echo-like tool named `name` on the running server. */
  registerTool(name: string): Promise<void>;
  /** Removes the tool `name` (`server.removeTool(name)`). */
  removeTool(name: string): Promise<void>;
  /** Registers echo-like tools `names` as one package and removes the package through its handle. */
  registerAndRemovePackage(names: string[]): Promise<void>;
  /** Registers one more document on the running server. */
  registerDocument(path: string): Promise<void>;
  // Prompts and resources (optional: a target without them skips those contract tests).
  /** `server.sendResourceUpdated(uri)`. */
  sendResourceUpdated?(uri: string): Promise<void>;
  /** Sets the text of the fixture resource `memo://status`, then `sendResourceUpdated('memo://status')`. */
  updateStatus?(text: string): Promise<void>;
  /** Registers a one-message prompt named `name` (text `extra prompt <name>`). */
  registerPrompt?(name: string): Promise<void>;
  /** Registers an in-memory resource at `uri` whose content is `text`. */
  registerResource?(uri: string, text: string): Promise<void>;
}

/** One client connected to a server built from the fixture (tools echo/add/fail + a docs folder). */
export interface ContractSession {
  client: TestClient;
  control: ServerControl;
  close(): Promise<void>;
}

/** A server class under test: how to start the fixture on it and connect a client of each kind. */
export interface ContractTarget {
  name: string;
  open(kind: ClientKind, docsDir: string): Promise<ContractSession>;
}
