import { relations } from 'drizzle-orm';
import { class_category, class_type, instructor, location } from './catalogue.ts';
import { accepted_page, announcement, file, form, form_field, page } from './content.ts';
import { address, customer } from './customer.ts';
import { discount, discount_class_package, discount_use } from './discounts.ts';
import { class_package, class_package_type } from './packages.ts';
import { payment_method, payment_source } from './payments.ts';
import { available_classes, invoice, purchase } from './purchases.ts';
import { class_reservation, class_reservation_penalty, waitlist } from './reservations.ts';
import { single_class, single_class_instructor, single_class_tag } from './schedule.ts';
import { favorite, playback, program, tag, video, video_program, video_tag, video_type } from './videos.ts';

/* Relations for drizzle's relational queries (db.query.x.findMany({ with })); they add no SQL. */

export const customerRelations = relations(customer, ({ one, many }) => ({
  address: one(address, { fields: [customer.address_id], references: [address.address_id] }),
  file: one(file, { fields: [customer.file_id], references: [file.file_id] }),
  accepted_pages: many(accepted_page),
  class_reservations: many(class_reservation),
  available_classes: many(available_classes),
  purchases: many(purchase),
  invoices: many(invoice),
  waitlists: many(waitlist),
  payment_sources: many(payment_source),
  favorites: many(favorite),
  playbacks: many(playback),
  class_reservation_penalties: many(class_reservation_penalty),
}));

export const addressRelations = relations(address, ({ one }) => ({
  customer: one(customer, { fields: [address.customer_id], references: [customer.customer_id] }),
}));

export const pageRelations = relations(page, ({ many }) => ({ accepted_pages: many(accepted_page) }));
export const acceptedPageRelations = relations(accepted_page, ({ one }) => ({
  page: one(page, { fields: [accepted_page.page_id], references: [page.page_id] }),
  customer: one(customer, { fields: [accepted_page.customer_id], references: [customer.customer_id] }),
}));
export const announcementRelations = relations(announcement, ({ one }) => ({
  file: one(file, { fields: [announcement.file_id], references: [file.file_id] }),
}));
export const formRelations = relations(form, ({ many }) => ({ form_fields: many(form_field) }));
export const formFieldRelations = relations(form_field, ({ one }) => ({
  form: one(form, { fields: [form_field.form_id], references: [form.form_id] }),
}));

export const classTypeRelations = relations(class_type, ({ one }) => ({
  class_category: one(class_category, {
    fields: [class_type.class_category_id],
    references: [class_category.class_category_id],
  }),
}));
export const instructorRelations = relations(instructor, ({ one, many }) => ({
  file: one(file, { fields: [instructor.file_id], references: [file.file_id] }),
  single_classes: many(single_class_instructor),
  videos: many(video),
}));

export const singleClassRelations = relations(single_class, ({ one, many }) => ({
  class_type: one(class_type, { fields: [single_class.class_type_id], references: [class_type.class_type_id] }),
  location: one(location, { fields: [single_class.location_id], references: [location.location_id] }),
  class_package: one(class_package, {
    fields: [single_class.class_package_id],
    references: [class_package.class_package_id],
  }),
  class_reservations: many(class_reservation),
  class_instructors: many(single_class_instructor),
  tags: many(single_class_tag),
  waitlists: many(waitlist),
}));
export const singleClassInstructorRelations = relations(single_class_instructor, ({ one }) => ({
  single_class: one(single_class, {
    fields: [single_class_instructor.single_class_id],
    references: [single_class.single_class_id],
  }),
  instructor: one(instructor, {
    fields: [single_class_instructor.instructor_id],
    references: [instructor.instructor_id],
  }),
}));
export const singleClassTagRelations = relations(single_class_tag, ({ one }) => ({
  single_class: one(single_class, {
    fields: [single_class_tag.single_class_id],
    references: [single_class.single_class_id],
  }),
  tag: one(tag, { fields: [single_class_tag.tag_id], references: [tag.tag_id] }),
}));

export const classReservationRelations = relations(class_reservation, ({ one }) => ({
  single_class: one(single_class, {
    fields: [class_reservation.single_class_id],
    references: [single_class.single_class_id],
  }),
  customer: one(customer, { fields: [class_reservation.customer_id], references: [customer.customer_id] }),
  available_class: one(available_classes, {
    fields: [class_reservation.available_class_id],
    references: [available_classes.available_class_id],
  }),
}));
export const waitlistRelations = relations(waitlist, ({ one }) => ({
  single_class: one(single_class, { fields: [waitlist.single_class_id], references: [single_class.single_class_id] }),
  customer: one(customer, { fields: [waitlist.customer_id], references: [customer.customer_id] }),
}));
export const classReservationPenaltyRelations = relations(class_reservation_penalty, ({ one }) => ({
  customer: one(customer, { fields: [class_reservation_penalty.customer_id], references: [customer.customer_id] }),
}));

export const classPackageRelations = relations(class_package, ({ one, many }) => ({
  class_package_types: many(class_package_type),
  receipt_file: one(file, { fields: [class_package.receipt_file_id], references: [file.file_id] }),
  purchases: many(purchase),
}));
export const classPackageTypeRelations = relations(class_package_type, ({ one }) => ({
  class_package: one(class_package, {
    fields: [class_package_type.class_package_id],
    references: [class_package.class_package_id],
  }),
  class_type: one(class_type, { fields: [class_package_type.class_type_id], references: [class_type.class_type_id] }),
}));

export const purchaseRelations = relations(purchase, ({ one, many }) => ({
  customer: one(customer, { fields: [purchase.customer_id], references: [customer.customer_id] }),
  class_package: one(class_package, {
    fields: [purchase.class_package_id],
    references: [class_package.class_package_id],
  }),
  payment_method: one(payment_method, {
    fields: [purchase.payment_method_id],
    references: [payment_method.payment_method_id],
  }),
  payment_source: one(payment_source, {
    fields: [purchase.payment_source_id],
    references: [payment_source.payment_source_id],
  }),
  discount: one(discount, { fields: [purchase.discount_id], references: [discount.discount_id] }),
  invoices: many(invoice),
  available_classes: many(available_classes),
}));
export const invoiceRelations = relations(invoice, ({ one }) => ({
  purchase: one(purchase, { fields: [invoice.purchase_id], references: [purchase.purchase_id] }),
  customer: one(customer, { fields: [invoice.customer_id], references: [customer.customer_id] }),
}));
export const availableClassesRelations = relations(available_classes, ({ one }) => ({
  customer: one(customer, { fields: [available_classes.customer_id], references: [customer.customer_id] }),
  purchase: one(purchase, { fields: [available_classes.purchase_id], references: [purchase.purchase_id] }),
  class_type: one(class_type, { fields: [available_classes.class_type_id], references: [class_type.class_type_id] }),
}));
export const paymentSourceRelations = relations(payment_source, ({ one }) => ({
  customer: one(customer, { fields: [payment_source.customer_id], references: [customer.customer_id] }),
}));

export const discountRelations = relations(discount, ({ many }) => ({
  class_packages: many(discount_class_package),
  uses: many(discount_use),
}));
export const discountClassPackageRelations = relations(discount_class_package, ({ one }) => ({
  discount: one(discount, { fields: [discount_class_package.discount_id], references: [discount.discount_id] }),
  class_package: one(class_package, {
    fields: [discount_class_package.class_package_id],
    references: [class_package.class_package_id],
  }),
}));
export const discountUseRelations = relations(discount_use, ({ one }) => ({
  discount: one(discount, { fields: [discount_use.discount_id], references: [discount.discount_id] }),
  customer: one(customer, { fields: [discount_use.customer_id], references: [customer.customer_id] }),
}));

export const videoRelations = relations(video, ({ one, many }) => ({
  instructor: one(instructor, { fields: [video.instructor_id], references: [instructor.instructor_id] }),
  video_type: one(video_type, { fields: [video.video_type_id], references: [video_type.video_type_id] }),
  class_type: one(class_type, { fields: [video.class_type_id], references: [class_type.class_type_id] }),
  file: one(file, { fields: [video.file_id], references: [file.file_id] }),
  tags: many(video_tag),
  programs: many(video_program),
  playbacks: many(playback),
  favorites: many(favorite),
}));
export const videoTagRelations = relations(video_tag, ({ one }) => ({
  video: one(video, { fields: [video_tag.video_id], references: [video.video_id] }),
  tag: one(tag, { fields: [video_tag.tag_id], references: [tag.tag_id] }),
}));
export const videoProgramRelations = relations(video_program, ({ one }) => ({
  video: one(video, { fields: [video_program.video_id], references: [video.video_id] }),
  program: one(program, { fields: [video_program.program_id], references: [program.program_id] }),
}));
export const programRelations = relations(program, ({ many }) => ({ videos: many(video_program) }));
export const tagRelations = relations(tag, ({ many }) => ({ videos: many(video_tag), single_classes: many(single_class_tag) }));
export const favoriteRelations = relations(favorite, ({ one }) => ({
  video: one(video, { fields: [favorite.video_id], references: [video.video_id] }),
  customer: one(customer, { fields: [favorite.customer_id], references: [customer.customer_id] }),
}));
export const playbackRelations = relations(playback, ({ one }) => ({
  video: one(video, { fields: [playback.video_id], references: [video.video_id] }),
  customer: one(customer, { fields: [playback.customer_id], references: [customer.customer_id] }),
}));
