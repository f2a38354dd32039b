import { DocumentStore } from '../../documents/document-store.js';
import { DocumentRegistration } from './document-registration.js';
import { installDocumentSupport } from './document-support.js';

// Imported for this effect by the Node entry points (the root, the stdio and HTTP servers): servers made
// there get the file-system document store. `mcp-toolkit/fetch` does not import it, so its graph stays Node-free.
installDocumentSupport({
  createStore: () => new DocumentStore(),
  createRegistrar: (parts) => new DocumentRegistration(parts),
});
