import { runContractSuite } from '../contract/contract-suite.js';
import { httpTarget } from '../contract/http-target.js';

runContractSuite(httpTarget);
