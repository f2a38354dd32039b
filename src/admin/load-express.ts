import { lazyRequire } from '../lazy-module.js';

/**
 * express, loaded when the first admin router is built: `adminRouter` is exported from the package
 * root, and a stdio server that never mounts it must not pay for the HTTP stack (bench W0).
 */
export const loadExpress = lazyRequire<typeof import('express')>('express');
