/**
 * Runs in every jest test file. nock patches Node's http module when it is loaded, and jest gives
 * each test file its own copy of nock but one http module per worker: without a restore, every
 * file that loads nock adds a layer that every later request in the worker passes through (60
 * suites in, a request went through dozens of layers and a 500-poll test ran 10 times slower).
 * Restoring at the end of each file keeps one layer at a time. Loading nock here when the file
 * did not only patches and unpatches at once.
 */
afterAll(() => {
	(require('nock') as typeof import('nock')).restore();
});
