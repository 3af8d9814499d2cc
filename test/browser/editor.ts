/**
 * What the browser test does in n8n's editor, in the words of the editor's own test ids
 * (`data-test-id`, as n8n's own Playwright tests use them). One place to change when the editor
 * changes.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import type { Locator, Page } from 'playwright-core';

// Generous: on a busy 2-core machine the editor's first load alone can take half a minute.
export const TIMEOUT = 60_000;

/** Screenshots are numbered across steps, in the order taken. */
let shots = 0;

export class Editor {
	constructor(
		readonly page: Page,
		readonly url: string,
		readonly screenshotDir: string,
	) {
		mkdirSync(screenshotDir, { recursive: true });
	}

	/** A screenshot of the whole window, numbered in the order taken. Returns its path. */
	async shot(name: string): Promise<string> {
		// Let opening dropdowns and pickers finish their transition (capped: spinners run forever).
		await this.page
			.waitForFunction('document.getAnimations().every((a) => a.playState !== "running")', undefined, { timeout: 1500 })
			.catch(() => undefined);
		shots += 1;
		const file = join(this.screenshotDir, `${String(shots).padStart(2, '0')}-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.png`);
		await this.page.screenshot({ path: file });
		return file;
	}

	byTestId(id: string): Locator {
		return this.page.locator(`[data-test-id="${id}"]`);
	}

	async signIn(email: string, password: string): Promise<void> {
		await this.page.goto(`${this.url}/signin`);
		await this.page.locator('input[type="email"], input[name="emailOrLdapLoginId"], input[name="email"]').first().fill(email);
		await this.page.locator('input[type="password"]').first().fill(password);
		await this.byTestId('form-submit-button').click();
		await this.page.waitForURL((u) => !u.pathname.startsWith('/signin'), { timeout: TIMEOUT });
	}

	async openWorkflow(id: string): Promise<void> {
		await this.page.goto(`${this.url}/workflow/${id}`);
		await this.byTestId('canvas-node').first().waitFor({ timeout: TIMEOUT });
		await this.dismissPopups();
	}

	/** n8n shows hints and callouts on a first visit; they cover what the test looks at. */
	async dismissPopups(): Promise<void> {
		for (const text of ['Got it', 'Dismiss', 'Close']) {
			const button = this.page.getByRole('button', { name: text, exact: true });
			if (await button.first().isVisible().catch(() => false)) await button.first().click().catch(() => undefined);
		}
	}

	canvasNode(name: string): Locator {
		return this.page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`);
	}

	/** Opens a node's panel (double-click on the canvas, as users do). */
	async openNode(name: string): Promise<Locator> {
		await this.canvasNode(name).first().dblclick();
		const ndv = this.byTestId('ndv');
		await ndv.waitFor({ state: 'visible', timeout: TIMEOUT });
		await this.byTestId('node-parameters').first().waitFor({ timeout: TIMEOUT }).catch(() => undefined);
		return ndv;
	}

	/** The panel's title: the node's name (the hidden copy n8n measures the title with is left out). */
	nodeTitle(name: string): Locator {
		return this.byTestId('ndv').getByText(name, { exact: true }).filter({ visible: true }).first();
	}

	async closeNode(): Promise<void> {
		await this.byTestId('ndv-close-button').first().click();
		await this.byTestId('ndv').waitFor({ state: 'hidden', timeout: TIMEOUT });
	}

	/**
	 * Opens a dropdown parameter of the open panel (by name, or the parameter's own locator for one
	 * inside a collection) and returns the texts of its options.
	 */
	async dropdownOptions(parameter: string | Locator): Promise<string[]> {
		const input = typeof parameter === 'string' ? this.byTestId(`parameter-input-${parameter}`).first() : parameter.getByRole('combobox').first();
		const list = this.page.locator('.el-select-dropdown:visible');
		const options = list.locator('.el-select-dropdown__item');
		// On a busy machine n8n 2.41's editor can drop a click that comes while the panel still
		// renders: click again while no list is open (never while one is, a click would close it).
		const deadline = Date.now() + TIMEOUT;
		while ((await list.count()) === 0 && Date.now() < deadline) {
			await input.click();
			await list.first().waitFor({ timeout: 5_000 }).catch(() => undefined);
		}
		await options.first().waitFor({ timeout: Math.max(1_000, deadline - Date.now()) });
		return await options.allInnerTexts();
	}

	/** A parameter of the open panel by its path (`options.idempotency`, `fees.fee[0].type`). */
	parameter(path: string): Locator {
		return this.byTestId('ndv').locator(`[data-parameter-path="parameters.${path}"]`);
	}

	/** Clicks an entry of the dropdown that is open. */
	async choose(text: string): Promise<void> {
		await this.page.locator('.el-select-dropdown:visible .el-select-dropdown__item').getByText(text, { exact: true }).click();
	}

	/** Opens a collection's "Add …" list (Options unless named) and returns what it offers. */
	async optionsToAdd(label = 'Options'): Promise<string[]> {
		const collection = this.byTestId('ndv')
			.locator('[data-test-id="parameter-item"]')
			.filter({ has: this.page.getByText(label, { exact: true }) })
			.first();
		const add = collection.locator('[data-test-id="collection-parameter-add"]');
		await add.scrollIntoViewIfNeeded();
		await add.click();
		const options = this.page.locator('.el-select-dropdown:visible [data-test-id="collection-parameter-option"]');
		await options.first().waitFor({ timeout: TIMEOUT });
		return (await options.allInnerTexts()).map((t) => t.trim());
	}

	/** Presses the panel's "Execute step" and waits for the output panel to show a result. */
	async executeOpenNode(): Promise<Locator> {
		await this.byTestId('node-execute-button').first().click();
		const output = this.page.locator('[data-test-id="ndv-output-panel"], [data-test-id="output-panel"]').first();
		await output.locator('[data-test-id="ndv-data-container"]').first().waitFor({ timeout: TIMEOUT });
		return output;
	}

	/** Shows the output panel's data as JSON (nested fields are readable there) and moves the mouse off the panel's tooltips. */
	async outputAsJson(output: Locator): Promise<void> {
		await output.locator('[data-test-id="ndv-run-data-display-mode"]').getByText('JSON', { exact: true }).first().click();
		await this.page.mouse.move(5, 890);
	}

	/** Opens a credential from the Credentials list. */
	async openCredential(name: string): Promise<Locator> {
		await this.page.goto(`${this.url}/home/credentials`);
		await this.page.getByText(name, { exact: true }).first().click();
		const modal = this.byTestId('editCredential-modal');
		await modal.waitFor({ state: 'visible', timeout: TIMEOUT });
		return modal;
	}

	async closeModal(modal: Locator): Promise<void> {
		await this.page.keyboard.press('Escape');
		await modal.waitFor({ state: 'hidden', timeout: TIMEOUT }).catch(() => undefined);
	}
}
