import { runContractSuite } from '../contract/contract-suite.js';
import { httpTarget } from '../contract/http-target.js';
import { runPromptsResourcesSuite } from '../contract/prompts-resources-suite.js';

runContractSuite(httpTarget);
runPromptsResourcesSuite(httpTarget);
