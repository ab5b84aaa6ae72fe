/**
 * The flags `npm start` runs the API's node with (package.json repeats them; the benchmark's server
 * uses these). Young-generation semi-spaces of 32 MiB instead of V8's default (16 MiB on 64-bit):
 * each request leaves a few hundred KB of short-lived objects (parsed query, rows, Buffers), and
 * larger semi-spaces mean fewer scavenges, most of whose objects are dead by then. Measured at 1M
 * (npm run bench -- --scenario search,sort-recent, runs alternated): search 1 958 and 1 848 req/s
 * (0.53 and 0.57 ms of CPU per request) with the default, 2 272 and 2 075 (0.46 and 0.50) with 32 MiB.
 * Costs up to about 50 MiB more of RSS.
 */
export const API_NODE_FLAGS = ['--max-semi-space-size=32'];
