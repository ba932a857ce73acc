// Billing still runs on PostgreSQL through TypeORM; this module never touches MongoDB.
import { Column, DataSource, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'invoice_rows' })
export class InvoiceRow {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column()
  status!: string;

  @Column({ type: 'timestamptz' })
  dueAt!: Date;

  @Column({ type: 'integer' })
  totalCents!: number;
}

export async function openInvoicesPage(ds: DataSource, page: number, pageSize = 50) {
  return ds
    .getRepository(InvoiceRow)
    .createQueryBuilder('inv')
    .where('inv.status = :status', { status: 'open' })
    .orderBy('inv.dueAt', 'ASC')
    .skip((page - 1) * pageSize) // ok: skip-paging — TypeORM query builder, not MongoDB
    .take(pageSize)
    .getMany();
}

export async function findInvoice(ds: DataSource, id: number) {
  const rows = await ds.getRepository(InvoiceRow).find({ where: { status: 'open' }, take: 500 });
  return rows.find((r) => r.id === id); // Array.prototype.find, not a driver call: must stay clean
}
