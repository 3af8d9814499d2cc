/**
 * An in-memory data table with the interface n8n's Data table node calls
 * (n8n-workflow's IDataTableProjectService): rows with n8n's system columns (id, createdAt,
 * updatedAt) and the filters eq, neq, gt, gte, lt, lte, like, ilike with "and" / "or".
 *
 * The Invoice node cannot call a data table itself in n8n (n8n's DataTableProxyService serves
 * only its own Data table and Evaluation nodes), so the watch-list tests apply the steps the
 * examples' Data table nodes take (Get, Insert, a conditional Update, Delete) to this table
 * between node runs. An update changes exactly the rows its filter matches when it runs and
 * returns them, as n8n's update does in one database statement (RETURNING on PostgreSQL).
 */
import type {
	DataTableColumn,
	DataTableFilter,
	DataTableInsertRowsResult,
	DataTableInsertRowsReturnType,
	DataTableRow,
	DataTableRowReturn,
	DataTableRows,
	DataTableRowsReturn,
	DeleteDataTableRowsOptions,
	IDataTableProjectService,
	ListDataTableRowsOptions,
	UpdateDataTableRowOptions,
	UpsertDataTableRowOptions,
} from 'n8n-workflow';

import { WATCH_LIST_COLUMNS } from '../../nodes/watch/rowState';

function matches(row: DataTableRowReturn, filter?: DataTableFilter): boolean {
	if (!filter || filter.filters.length === 0) return true;
	const test = ({ columnName, condition, value }: DataTableFilter['filters'][number]) => {
		const have = row[columnName] ?? null;
		switch (condition) {
			case 'eq':
				return have === value;
			case 'neq':
				return have !== value;
			case 'gt':
				return have !== null && value !== null && have > value;
			case 'gte':
				return have !== null && value !== null && have >= value;
			case 'lt':
				return have !== null && value !== null && have < value;
			case 'lte':
				return have !== null && value !== null && have <= value;
			default: {
				const pattern = new RegExp(`^${String(value).replace(/%/g, '.*')}$`, condition === 'ilike' ? 'i' : '');
				return pattern.test(String(have ?? ''));
			}
		}
	};
	return filter.type === 'and' ? filter.filters.every(test) : filter.filters.some(test);
}

export class MemoryDataTable implements IDataTableProjectService {
	rows: DataTableRowReturn[] = [];
	private nextId = 1;
	constructor(private readonly columns: Array<Pick<DataTableColumn, 'name' | 'type'>>) {}

	async updateDataTable(): Promise<boolean> {
		return true;
	}
	async deleteDataTable(): Promise<boolean> {
		this.rows = [];
		return true;
	}
	async getColumns(): Promise<DataTableColumn[]> {
		return this.columns.map((c, index) => ({ ...c, id: c.name, index, dataTableId: 'memory' }));
	}
	async addColumn(): Promise<DataTableColumn> {
		throw new Error('not used');
	}
	async moveColumn(): Promise<boolean> {
		throw new Error('not used');
	}
	async deleteColumn(): Promise<boolean> {
		throw new Error('not used');
	}
	async getManyRowsAndCount(dto: Partial<ListDataTableRowsOptions>): Promise<{ count: number; data: DataTableRowsReturn }> {
		const all = this.rows.filter((row) => matches(row, dto.filter)).map((row) => ({ ...row }));
		const data = all.slice(dto.skip ?? 0, dto.take ? (dto.skip ?? 0) + dto.take : undefined);
		return { count: all.length, data };
	}
	private keep(row: DataTableRow): DataTableRow {
		return Object.fromEntries(this.columns.map((c) => [c.name, row[c.name] ?? null]));
	}
	async insertRows<T extends DataTableInsertRowsReturnType>(rows: DataTableRows, returnType: T): Promise<DataTableInsertRowsResult<T>> {
		const inserted = rows.map((row) => {
			const now = new Date();
			const stored = { ...this.keep(row), id: this.nextId++, createdAt: now, updatedAt: now } as DataTableRowReturn;
			this.rows.push(stored);
			return { ...stored };
		});
		const result =
			returnType === 'all' ? inserted : returnType === 'id' ? inserted.map(({ id }) => ({ id })) : { success: true, insertedRows: inserted.length };
		return result as DataTableInsertRowsResult<T>;
	}
	async updateRows(options: UpdateDataTableRowOptions): Promise<DataTableRowReturn[]> {
		const data = Object.fromEntries(Object.entries(options.data).filter(([name]) => this.columns.some((c) => c.name === name)));
		const changed = this.rows.filter((row) => matches(row, options.filter));
		for (const row of changed) Object.assign(row, data, { updatedAt: new Date() });
		return changed.map((row) => ({ ...row }));
	}
	async upsertRow(options: UpsertDataTableRowOptions): Promise<DataTableRowReturn[]> {
		const updated = await this.updateRows(options);
		return updated.length ? updated : await this.insertRows([options.data], 'all');
	}
	async deleteRows(options: DeleteDataTableRowsOptions): Promise<DataTableRowReturn[]> {
		const gone = this.rows.filter((row) => matches(row, options.filter));
		this.rows = this.rows.filter((row) => !gone.includes(row));
		return gone;
	}
}

/** The watch list's columns, as docs and examples create them. */
export function watchListTable(): MemoryDataTable {
	return new MemoryDataTable([...WATCH_LIST_COLUMNS]);
}
