import { runContractSuite } from '../contract/contract-suite.js';
import { runPromptsResourcesSuite } from '../contract/prompts-resources-suite.js';
import { stdioTarget } from '../contract/stdio-target.js';

runContractSuite(stdioTarget);
runPromptsResourcesSuite(stdioTarget);
