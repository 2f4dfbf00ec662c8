import { runChecks } from './src/checks.js';

console.log(JSON.stringify(await runChecks()));
