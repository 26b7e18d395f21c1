import { boolean, index, integer, pgTable, serial, text, timestamp, varchar } from 'drizzle-orm/pg-core'

/** Classifier -> appeal type -> category -> subcategory (interface 2.2). */
export const classifiers = pgTable('classifiers', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 255 }).notNull(),
  /** the console's; the interface names an item once */
  name_kk: varchar('name_kk', { length: 255 }),
  code: varchar('code', { length: 64 }).notNull().unique('classifiers_code_unique'),
  description: text('description'),
  is_active: boolean('is_active').notNull().default(true),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})

export const appealTypes = pgTable('appeal_types', {
  id: serial('id').primaryKey(),
  classifier_id: integer('classifier_id').notNull().references(() => classifiers.id, { onDelete: 'restrict' }),
  name: varchar('name', { length: 255 }).notNull(),
  name_kk: varchar('name_kk', { length: 255 }),
  code: varchar('code', { length: 64 }),
  sort_order: integer('sort_order').notNull().default(0),
  is_active: boolean('is_active').notNull().default(true),
}, (t) => [index('appeal_types_classifier_idx').on(t.classifier_id, t.sort_order)])

export const categories = pgTable('categories', {
  id: serial('id').primaryKey(),
  appeal_type_id: integer('appeal_type_id').notNull().references(() => appealTypes.id, { onDelete: 'restrict' }),
  name: varchar('name', { length: 255 }).notNull(),
  name_kk: varchar('name_kk', { length: 255 }),
  sort_order: integer('sort_order').notNull().default(0),
  is_active: boolean('is_active').notNull().default(true),
}, (t) => [index('categories_appeal_type_idx').on(t.appeal_type_id, t.sort_order)])

export const subcategories = pgTable('subcategories', {
  id: serial('id').primaryKey(),
  category_id: integer('category_id').notNull().references(() => categories.id, { onDelete: 'restrict' }),
  name: varchar('name', { length: 255 }).notNull(),
  name_kk: varchar('name_kk', { length: 255 }),
  /** 1 (highest) to 5 */
  priority: integer('priority').notNull().default(3),
  /** whole hours */
  time_to_work: integer('time_to_work'),
  /** whole hours */
  time_to_close: integer('time_to_close'),
  sort_order: integer('sort_order').notNull().default(0),
  is_active: boolean('is_active').notNull().default(true),
}, (t) => [index('subcategories_category_idx').on(t.category_id, t.sort_order)])
