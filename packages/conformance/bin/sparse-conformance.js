#!/usr/bin/env node
// The command, committed so that npm links it at install, before the build has written dist/.
import '../dist/cli.js';
