import { runContractSuite } from '../contract/contract-suite.js';
import { stdioTarget } from '../contract/stdio-target.js';

runContractSuite(stdioTarget);
