/**
 * The flags `npm start` runs the API's node with (package.json repeats them; the benchmark's server
 * uses these). Young-generation semi-spaces twice V8's default on 64-bit: each request leaves
 * short-lived objects (parsed query, rows, Buffers), and larger semi-spaces mean fewer scavenges,
 * most of whose objects are dead by then; the benchmark's search scenarios spend less CPU per
 * request with them. The price is a somewhat larger RSS.
 */
export const API_NODE_FLAGS = ['--max-semi-space-size=32'];
