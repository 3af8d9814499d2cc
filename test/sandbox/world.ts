import { loadRates, type StateRates } from './calculator/rates';
import { DownloadLinks } from './documents/links';
import { Faults } from './faults';
import { NO_FORMS, type FormsConfig } from './invoices/forms';
import { IdempotencyStore } from './idempotency';
import { InvoiceStore } from './invoices/store';
import { RateLimiter } from './rateLimit';
import { buildStates, type StateRow } from './reference/catalog';

/**
 * Everything the sandbox remembers. Seed data (keys, rates, catalogs) is read-only; the mutable
 * parts are rebuilt by reset(), which is what "back to the seeded state" means.
 */
export class World {
	readonly rates: readonly StateRates[];
	readonly states: readonly StateRow[];
	readonly links: DownloadLinks;
	readonly faults = new Faults();
	invoices = new InvoiceStore();
	idempotency = new IdempotencyStore();
	rateLimiter = new RateLimiter();
	/** How stored invoices are shown (the forms switch); reset() goes back to the start's. */
	forms: FormsConfig;
	/**
	 * Percentage points added to every percentage rate the calculator (only: not the preview)
	 * uses in a state: a calculator that disagrees with the service's own preview, as a real one
	 * might (POST /_sandbox/calculator).
	 */
	calculatorSkew = new Map<string, number>();
	/** Set once the server listens; download links point here. */
	origin = 'http://127.0.0.1';

	/** The service's clock: the real one moved by the forms switch's clock offset. */
	readonly now = (): Date => new Date(this.realNow().getTime() + this.forms.clockOffsetSeconds * 1000);

	constructor(
		private readonly realNow: () => Date,
		private readonly startForms: FormsConfig = NO_FORMS,
	) {
		this.forms = startForms;
		this.rates = loadRates();
		this.states = buildStates(this.rates);
		this.links = new DownloadLinks(() => this.origin, this.now);
	}

	reset(): void {
		this.invoices = new InvoiceStore();
		this.idempotency = new IdempotencyStore();
		this.rateLimiter = new RateLimiter();
		this.faults.reset();
		this.forms = this.startForms;
		this.calculatorSkew = new Map();
	}

	state(code: string): { row: StateRow; rates: StateRates } | undefined {
		const i = this.states.findIndex((s) => s.code === code.toUpperCase());
		return i < 0 ? undefined : { row: this.states[i], rates: this.rates[i] };
	}
}
