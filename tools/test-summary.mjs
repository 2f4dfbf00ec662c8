// Prints the plain "N passed, N failed" line CI reads, from vitest's JSON report, and exits with the test status.
import { existsSync, readFileSync } from 'node:fs';

const [file, status = '1'] = process.argv.slice(2);
let passed = 0;
let failed = 0;
if (file && existsSync(file)) {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed = report.numPassedTests;
  failed = report.numFailedTests;
  // A test file that fails to load has no failed tests of its own: count it as one failure.
  for (const suite of report.testResults) {
    if (suite.status === 'failed' && !suite.assertionResults.some((a) => a.status === 'failed')) failed += 1;
  }
}
// No report, or a non-zero exit with nothing failed (the build broke before any test ran): that is a failure too.
if (Number(status) !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
