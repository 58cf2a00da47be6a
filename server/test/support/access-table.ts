/**
 * Who may call each procedure and each route of /api: the product's own
 * expectation, written down by hand and never read from the router. The
 * access tests compare the router with it (access-table.test.ts) and take each
 * role's expected answers from it (authz-matrix.test.ts, admin-authz.test.ts),
 * so a guard changed in the router (an admin route demoted to staff) fails
 * until this table says so too, where a reviewer sees it. A new procedure or
 * route fails those tests until it is added here with its role.
 *
 * Roles, from open to closed:
 *   public    answers anyone, without a token
 *   optional  answers anyone; with a token it adds the caller's own data
 *   identity  signed in, with or without a customer row: acts on the caller's own account
 *   customer  a customer row (front desk and admins have one too)
 *   coach     the Coach role only (decision 045)
 *   staff     front desk and admins
 *   admin     admins only
 */
export const requiredRoles = ['public', 'optional', 'identity', 'customer', 'coach', 'staff', 'admin'] as const;
export type RequiredRole = (typeof requiredRoles)[number];

export interface ProcedureAccess {
  role: RequiredRole;
  /** Its REST route ('PUT /api/appconfig'), or null when it is served over /trpc only. */
  rest: string | null;
}

/** Every procedure of the router, by its path. */
export const procedureAccess: Record<string, ProcedureAccess> = {
  // ---------- public ----------
  // The server is up (load balancers).
  health: { role: 'public', rest: 'GET /api/health' },
  // The studio's public settings, its pages and catalogue: the landing and the shop read them before sign-in.
  'appconfig.get': { role: 'public', rest: 'GET /api/appconfig' },
  // Getting a session needs no session.
  'auth.signup': { role: 'public', rest: 'POST /api/auth/signup' },
  'auth.login': { role: 'public', rest: 'POST /api/auth/login' },
  'auth.refresh': { role: 'public', rest: 'POST /api/auth/refresh' },
  'auth.recover': { role: 'public', rest: 'POST /api/auth/recover' },
  // Whether the studio can send e-mail at all: no secret, the portal's words depend on it.
  'messaging.channels': { role: 'public', rest: 'GET /api/messaging/channels' },
  // Which ways of paying the checkout offers (card, OXXO, SPEI, meses sin intereses): the shop shows them before sign-in.
  'checkout.options': { role: 'public', rest: 'GET /api/checkout/options' },
  'auth.resetPassword': { role: 'public', rest: 'POST /api/auth/reset' },
  'auth.confirmEmailChange': { role: 'public', rest: 'POST /api/auth/email/confirm' },
  'pages.list': { role: 'public', rest: 'GET /api/pages' },
  'pages.bySlug': { role: 'public', rest: 'GET /api/pages/{slug}' },
  'locations.list': { role: 'public', rest: 'GET /api/locations' },
  'locations.byId': { role: 'public', rest: 'GET /api/locations/{id}' },
  'instructors.home': { role: 'public', rest: 'GET /api/instructors/home/all' },
  'classCategories.list': { role: 'public', rest: 'GET /api/class_categories' },
  'classCategories.available': { role: 'public', rest: 'GET /api/class_categories/available' },
  'classCategories.byId': { role: 'public', rest: 'GET /api/class_categories/{id}' },
  'forms.list': { role: 'public', rest: 'GET /api/forms' },
  'forms.byId': { role: 'public', rest: 'GET /api/forms/{id}' },
  'customFields.list': { role: 'public', rest: 'GET /api/custom_fields' },
  'customFields.byId': { role: 'public', rest: 'GET /api/custom_fields/{id}' },
  'packages.list': { role: 'public', rest: 'GET /api/class_packages' },
  'packages.onlineAll': { role: 'public', rest: 'GET /api/class_packages/online/all' },
  'packages.onlineHome': { role: 'public', rest: 'GET /api/class_packages/online/home' },
  'packages.presencialesAll': { role: 'public', rest: 'GET /api/class_packages/presenciales/all' },
  'packages.presencialesHome': { role: 'public', rest: 'GET /api/class_packages/presenciales/home' },
  'packages.especialesAll': { role: 'public', rest: 'GET /api/class_packages/especiales/all' },
  'packages.especialesHome': { role: 'public', rest: 'GET /api/class_packages/especiales/home' },
  'packages.byId': { role: 'public', rest: 'GET /api/class_packages/{id}' },
  'paymentMethods.list': { role: 'public', rest: 'GET /api/payment_methods' },
  'tags.list': { role: 'public', rest: 'GET /api/tags' },
  'tags.byId': { role: 'public', rest: 'GET /api/tags/{id}' },
  // A stop link of an optional message works without signing in; its random token is the credential, limited per call.
  'messages.stopPreview': { role: 'public', rest: 'GET /api/messages/stop' },
  'messages.stop': { role: 'public', rest: 'POST /api/messages/stop' },
  // ---------- optional ----------
  // The calendar: public, and with a session it adds the caller's own reservations.
  'schedule.list': { role: 'optional', rest: 'GET /api/single_class' },
  'schedule.byId': { role: 'optional', rest: 'GET /api/single_class/single/{id}' },
  'announcements.list': { role: 'optional', rest: 'GET /api/announcements' },
  'announcements.byId': { role: 'optional', rest: 'GET /api/announcements/{id}' },
  'instructors.list': { role: 'optional', rest: 'GET /api/instructors' },
  'instructors.byId': { role: 'optional', rest: 'GET /api/instructors/{id}' },
  'classTypes.list': { role: 'optional', rest: 'GET /api/class_types' },
  'classTypes.byId': { role: 'optional', rest: 'GET /api/class_types/{id}' },
  'videos.upcoming': { role: 'optional', rest: 'GET /api/videos/upcoming' },
  'videoTypes.list': { role: 'optional', rest: 'GET /api/video_types' },
  'programs.list': { role: 'optional', rest: 'GET /api/programs' },
  'programs.byId': { role: 'optional', rest: 'GET /api/programs/{id}' },
  // ---------- identity ----------
  'auth.changePassword': { role: 'identity', rest: 'PUT /api/auth/password' },
  'auth.requestEmailChange': { role: 'identity', rest: 'POST /api/auth/email' },
  'auth.signOutEverywhere': { role: 'identity', rest: 'POST /api/auth/logout' },
  'customer.signup': { role: 'identity', rest: 'POST /api/customer/signup' },
  'users.current': { role: 'identity', rest: 'GET /api/users' },
  // ---------- customer ----------
  'customer.me': { role: 'customer', rest: 'GET /api/customer' },
  'customer.update': { role: 'customer', rest: 'PUT /api/customer' },
  // A customer's own tax profile and invoices (CFDI), an OXXO or SPEI order.
  'cfdi.taxProfile': { role: 'customer', rest: 'GET /api/customer/tax_profile' },
  'cfdi.saveTaxProfile': { role: 'customer', rest: 'PUT /api/customer/tax_profile' },
  'cfdi.deleteTaxProfile': { role: 'customer', rest: 'DELETE /api/customer/tax_profile' },
  'cfdi.request': { role: 'customer', rest: 'POST /api/purchases/{purchase_id}/cfdi' },
  'cfdi.file': { role: 'customer', rest: 'GET /api/cfdi/{id}/file' },
  'checkout.voucher': { role: 'customer', rest: 'POST /api/checkout/voucher' },
  'acceptedPages.list': { role: 'customer', rest: 'GET /api/accepted_pages' },
  'acceptedPages.accept': { role: 'customer', rest: 'POST /api/accepted_pages' },
  'reservations.create': { role: 'customer', rest: 'POST /api/class_reservations' },
  'reservations.update': { role: 'customer', rest: 'PUT /api/class_reservations' },
  'reservations.remove': { role: 'customer', rest: 'DELETE /api/class_reservations/{id}' },
  'reservations.search': { role: 'customer', rest: 'GET /api/class_reservations' },
  'reservations.mine': { role: 'customer', rest: 'GET /api/class_reservations/mine' },
  'reservations.progress': { role: 'customer', rest: 'GET /api/class_reservations/progress' },
  'standingBookings.list': { role: 'customer', rest: 'GET /api/standing_bookings' },
  'standingBookings.start': { role: 'customer', rest: 'POST /api/standing_bookings' },
  'standingBookings.end': { role: 'customer', rest: 'DELETE /api/standing_bookings/{id}' },
  'reservations.cancel': { role: 'customer', rest: 'POST /api/class_reservations/{id}/cancel' },
  'reservations.rate': { role: 'customer', rest: 'POST /api/class_reservations/{id}/rating' },
  'schedule.updateGuest': { role: 'customer', rest: 'PUT /api/single_class/guest' },
  'waitlist.list': { role: 'customer', rest: 'GET /api/waitlist' },
  'waitlist.byId': { role: 'customer', rest: 'GET /api/waitlist/{id}' },
  'waitlist.create': { role: 'customer', rest: 'POST /api/waitlist' },
  'waitlist.update': { role: 'customer', rest: 'PUT /api/waitlist' },
  'waitlist.remove': { role: 'customer', rest: 'DELETE /api/waitlist/{id}' },
  'credits.list': { role: 'customer', rest: 'GET /api/available_classes' },
  'credits.history': { role: 'customer', rest: 'GET /api/available_classes/date/all' },
  'credits.byId': { role: 'customer', rest: 'GET /api/available_classes/{id}' },
  'penalties.list': { role: 'customer', rest: 'GET /api/class_reservation_penaltys' },
  'penalties.byId': { role: 'customer', rest: 'GET /api/class_reservation_penaltys/{id}' },
  // An administrator lifts an active penalty with a reason (Actividad keeps it).
  'penalties.lift': { role: 'admin', rest: 'PUT /api/class_reservation_penaltys/{id}/lift' },
  'addresses.list': { role: 'customer', rest: 'GET /api/addresses' },
  'addresses.byId': { role: 'customer', rest: 'GET /api/addresses/{id}' },
  'addresses.create': { role: 'customer', rest: 'POST /api/addresses' },
  'addresses.update': { role: 'customer', rest: 'PUT /api/addresses' },
  'addresses.remove': { role: 'customer', rest: 'DELETE /api/addresses/{id}' },
  'files.list': { role: 'customer', rest: 'GET /api/files' },
  'files.byId': { role: 'customer', rest: 'GET /api/files/{id}' },
  'files.update': { role: 'customer', rest: 'PUT /api/files' },
  'files.remove': { role: 'customer', rest: 'DELETE /api/files/{id}' },
  'discounts.validate': { role: 'customer', rest: 'GET /api/discounts/code/{code}' },
  'checkout.attempt': { role: 'customer', rest: 'POST /api/checkout/attempt' },
  'checkout.create': { role: 'customer', rest: 'POST /api/checkout' },
  'checkout.confirm': { role: 'customer', rest: 'POST /api/checkout/confirm' },
  'checkout.paypal': { role: 'customer', rest: 'POST /api/checkout/paypal' },
  'checkout.capture': { role: 'customer', rest: 'POST /api/checkout/capture' },
  'purchases.list': { role: 'customer', rest: 'GET /api/purchases' },
  'purchases.byId': { role: 'customer', rest: 'GET /api/purchases/{id}' },
  'purchases.cancel': { role: 'customer', rest: 'POST /api/purchases/cancel/{id}' },
  'invoices.list': { role: 'customer', rest: 'GET /api/invoices' },
  'paymentSources.list': { role: 'customer', rest: 'GET /api/payment_sources' },
  'paymentSources.setup': { role: 'customer', rest: 'POST /api/payment_sources/setup' },
  'paymentSources.create': { role: 'customer', rest: 'POST /api/payment_sources' },
  'paymentSources.remove': { role: 'customer', rest: 'DELETE /api/payment_sources/{id}' },
  'metodosPago.list': { role: 'customer', rest: 'GET /api/metodosPago' },
  'metodosPago.create': { role: 'customer', rest: 'POST /api/metodosPago' },
  'metodosPago.remove': { role: 'customer', rest: 'DELETE /api/metodosPago/{id}' },
  'videos.list': { role: 'customer', rest: 'GET /api/videos' },
  'videos.byTag': { role: 'customer', rest: 'GET /api/videos/tag/{id}' },
  'videos.byProgram': { role: 'customer', rest: 'GET /api/videos/program/{id}' },
  'videos.byId': { role: 'customer', rest: 'GET /api/videos/{id}' },
  'videos.rate': { role: 'customer', rest: 'POST /api/videos/rating' },
  'videos.rateEmail': { role: 'customer', rest: 'POST /api/videos/rating/email' },
  'videos.complete': { role: 'customer', rest: 'PUT /api/videos/{id}/complete' },
  'videos.uncomplete': { role: 'customer', rest: 'PUT /api/videos/{id}/uncomplete' },
  'favorites.list': { role: 'customer', rest: 'GET /api/favorites' },
  'favorites.add': { role: 'customer', rest: 'POST /api/favorites' },
  'favorites.remove': { role: 'customer', rest: 'DELETE /api/favorites/{id}' },
  'messages.preferences': { role: 'customer', rest: 'GET /api/customer/messages' },
  'messages.updatePreferences': { role: 'customer', rest: 'PUT /api/customer/messages' },
  'messages.renewCalendarLink': { role: 'customer', rest: 'POST /api/customer/messages/calendar' },
  // Mexico's data-protection rights: her own copy (downloaded at GET /api/customer/my_data) and her ARCO requests.
  'privacy.personalData': { role: 'customer', rest: null },
  'privacy.myRequests': { role: 'customer', rest: 'GET /api/customer/privacy_requests' },
  'privacy.submitRequest': { role: 'customer', rest: 'POST /api/customer/privacy_requests' },
  // ---------- coach ----------
  'coach.classes': { role: 'coach', rest: 'GET /api/coach/single_class' },
  'coach.roster': { role: 'coach', rest: 'GET /api/coach/single_class/{id}/roster' },
  'coach.pay': { role: 'coach', rest: 'GET /api/coach/pay' },
  // ---------- staff ----------
  'customer.create': { role: 'staff', rest: 'POST /api/customer' },
  'customer.byPhone': { role: 'staff', rest: 'GET /api/customer/phone' },
  'customer.giveAccess': { role: 'staff', rest: 'POST /api/customer/giveAccess' },
  'customer.revokeAccess': { role: 'staff', rest: 'PUT /api/customer/revokeAccess' },
  'customer.removeClasses': { role: 'staff', rest: 'PUT /api/customer/removeClasses' },
  // A new password the customer types at the counter when the studio sends no e-mail (audited, her sessions end).
  'customer.setPassword': { role: 'staff', rest: 'POST /api/customer/password' },
  // The studio's questions a customer answered, for the desk's card (staff; a coach reads only her own class's roster).
  'customer.answers': { role: 'staff', rest: 'GET /api/customer/{id}/answers' },
  // Notes, alerts and health notes on a customer: staff's (the class's coach reads the health ones in her roster).
  'customer.notes': { role: 'staff', rest: 'GET /api/customer/{id}/notes' },
  'customer.addNote': { role: 'staff', rest: 'POST /api/customer/notes' },
  'customer.removeNote': { role: 'staff', rest: 'DELETE /api/customer/notes/{id}' },
  // The shifts at the cash drawer: Recepción opens, reads and closes its own (the service checks whose); an administrator any.
  'cashShifts.list': { role: 'staff', rest: 'GET /api/cash_shifts' },
  'cashShifts.current': { role: 'staff', rest: 'GET /api/cash_shifts/current' },
  'cashShifts.open': { role: 'staff', rest: 'POST /api/cash_shifts' },
  'cashShifts.close': { role: 'staff', rest: 'PUT /api/cash_shifts/{id}/close' },
  // A sale at the counter (packages and products in one cart), and what a discount code takes off it first.
  'sales.sell': { role: 'staff', rest: 'POST /api/sales' },
  'sales.quote': { role: 'staff', rest: 'POST /api/sales/quote' },
  'sales.products': { role: 'staff', rest: 'GET /api/sales/products' },
  'sales.returnProduct': { role: 'staff', rest: 'POST /api/sales/products/{product_sale_id}/return' },
  // The products sold at the counter: Recepción reads the list to sell them; only an administrator changes it (below).
  'products.list': { role: 'staff', rest: 'GET /api/products' },
  // CFDI at the desk: an invoice issued for a customer, the customer's invoices, a failed one sent again.
  'cfdi.deskIssue': { role: 'staff', rest: 'POST /api/cfdi/desk' },
  'cfdi.forCustomer': { role: 'staff', rest: 'GET /api/cfdi/customer/{id}' },
  'cfdi.retry': { role: 'staff', rest: 'POST /api/cfdi/{id}/retry' },
  'reservations.byId': { role: 'staff', rest: 'GET /api/class_reservations/single/{id}' },
  'reservations.checkIn': { role: 'staff', rest: 'PUT /api/class_reservations/{id}/checkin' },
  'credits.grant': { role: 'staff', rest: 'POST /api/available_classes' },
  'credits.update': { role: 'staff', rest: 'PUT /api/available_classes/{id}' },
  'credits.remove': { role: 'staff', rest: 'DELETE /api/available_classes/{id}' },
  'packages.attendees': { role: 'staff', rest: 'GET /api/class_packages/especiales/{id}/asistentes' },
  'purchases.markPaid': { role: 'staff', rest: 'PUT /api/purchases/{id}/paid' },
  'sync.pull': { role: 'staff', rest: null },
  'sync.push': { role: 'staff', rest: null },
  'sync.position': { role: 'staff', rest: null },
  'sync.snapshot': { role: 'staff', rest: null },
  'sync.poke': { role: 'staff', rest: null },
  'activity.forCustomer': { role: 'staff', rest: 'GET /api/customer/{id}/activity' },
  // ---------- admin ----------
  'appconfig.update': { role: 'admin', rest: 'PUT /api/appconfig' },
  'customer.adminAll': { role: 'admin', rest: 'GET /api/customer/admin/all' },
  'customer.adminById': { role: 'admin', rest: 'GET /api/customer/admin/{id}' },
  'customer.query': { role: 'admin', rest: 'GET /api/customer/query' },
  'customer.recover': { role: 'admin', rest: 'POST /api/customer/recover' },
  'pages.create': { role: 'admin', rest: 'POST /api/pages' },
  'pages.update': { role: 'admin', rest: 'PUT /api/pages' },
  'pages.removal': { role: 'admin', rest: 'GET /api/pages/{id}/removal' },
  'pages.remove': { role: 'admin', rest: 'DELETE /api/pages/{id}' },
  'locations.create': { role: 'admin', rest: 'POST /api/locations' },
  'locations.update': { role: 'admin', rest: 'PUT /api/locations' },
  'locations.remove': { role: 'admin', rest: 'DELETE /api/locations/{id}' },
  'rooms.list': { role: 'admin', rest: 'GET /api/rooms' },
  'rooms.create': { role: 'admin', rest: 'POST /api/rooms' },
  'rooms.update': { role: 'admin', rest: 'PUT /api/rooms' },
  'rooms.remove': { role: 'admin', rest: 'DELETE /api/rooms/{room_id}' },
  'announcements.create': { role: 'admin', rest: 'POST /api/announcements' },
  'announcements.update': { role: 'admin', rest: 'PUT /api/announcements' },
  'announcements.remove': { role: 'admin', rest: 'DELETE /api/announcements/{id}' },
  'instructors.create': { role: 'admin', rest: 'POST /api/instructors' },
  'instructors.update': { role: 'admin', rest: 'PUT /api/instructors/{id}' },
  'instructors.removal': { role: 'admin', rest: 'GET /api/instructors/{id}/removal' },
  'instructors.remove': { role: 'admin', rest: 'DELETE /api/instructors/{id}' },
  'classTypes.create': { role: 'admin', rest: 'POST /api/class_types' },
  'classTypes.update': { role: 'admin', rest: 'PUT /api/class_types' },
  'classTypes.remove': { role: 'admin', rest: 'DELETE /api/class_types/{id}' },
  'classCategories.create': { role: 'admin', rest: 'POST /api/class_categories' },
  'classCategories.update': { role: 'admin', rest: 'PUT /api/class_categories' },
  'classCategories.removal': { role: 'admin', rest: 'GET /api/class_categories/{id}/removal' },
  'classCategories.remove': { role: 'admin', rest: 'DELETE /api/class_categories/{id}' },
  'forms.create': { role: 'admin', rest: 'POST /api/forms' },
  'forms.update': { role: 'admin', rest: 'PUT /api/forms' },
  'forms.remove': { role: 'admin', rest: 'DELETE /api/forms/{id}' },
  'packages.adminAll': { role: 'admin', rest: 'GET /api/class_packages/admin/all' },
  'packages.adminById': { role: 'admin', rest: 'GET /api/class_packages/admin/{id}' },
  'packages.create': { role: 'admin', rest: 'POST /api/class_packages' },
  'packages.update': { role: 'admin', rest: 'PUT /api/class_packages' },
  'packages.remove': { role: 'admin', rest: 'DELETE /api/class_packages/{id}' },
  'packages.addToHome': { role: 'admin', rest: 'PUT /api/class_packages/{id}/home' },
  'packages.removeFromHome': { role: 'admin', rest: 'DELETE /api/class_packages/{id}/home' },
  'discounts.adminAll': { role: 'admin', rest: 'GET /api/discounts/admin/all' },
  'discounts.byId': { role: 'admin', rest: 'GET /api/discounts/{id}' },
  'discounts.create': { role: 'admin', rest: 'POST /api/discounts' },
  'discounts.update': { role: 'admin', rest: 'PUT /api/discounts' },
  'discounts.remove': { role: 'admin', rest: 'DELETE /api/discounts/{id}' },
  'products.create': { role: 'admin', rest: 'POST /api/products' },
  'products.update': { role: 'admin', rest: 'PUT /api/products' },
  'products.remove': { role: 'admin', rest: 'DELETE /api/products/{id}' },
  'purchases.adminAll': { role: 'admin', rest: 'GET /api/purchases/admin/all' },
  'purchases.releaseLimit': { role: 'admin', rest: 'POST /api/purchases/{id}/release-limit' },
  'purchases.refundQuote': { role: 'admin', rest: 'GET /api/purchases/{id}/refund' },
  'purchases.refund': { role: 'admin', rest: 'POST /api/purchases/{id}/refund' },
  'paymentMethods.byId': { role: 'admin', rest: 'GET /api/payment_methods/{id}' },
  'paymentMethods.create': { role: 'admin', rest: 'POST /api/payment_methods' },
  'paymentMethods.update': { role: 'admin', rest: 'PUT /api/payment_methods' },
  'paymentMethods.remove': { role: 'admin', rest: 'DELETE /api/payment_methods/{id}' },
  'videos.adminList': { role: 'admin', rest: 'GET /api/videos/admin/all' },
  'videos.create': { role: 'admin', rest: 'POST /api/videos' },
  'videos.update': { role: 'admin', rest: 'PUT /api/videos' },
  'videos.remove': { role: 'admin', rest: 'DELETE /api/videos/{id}' },
  'videoTypes.create': { role: 'admin', rest: 'POST /api/video_types' },
  'videoTypes.update': { role: 'admin', rest: 'PUT /api/video_types' },
  'videoTypes.remove': { role: 'admin', rest: 'DELETE /api/video_types/{id}' },
  'programs.create': { role: 'admin', rest: 'POST /api/programs' },
  'programs.update': { role: 'admin', rest: 'PUT /api/programs' },
  'programs.remove': { role: 'admin', rest: 'DELETE /api/programs/{id}' },
  'tags.create': { role: 'admin', rest: 'POST /api/tags' },
  'tags.update': { role: 'admin', rest: 'PUT /api/tags' },
  'tags.remove': { role: 'admin', rest: 'DELETE /api/tags/{id}' },
  'adminSchedule.create': { role: 'admin', rest: 'POST /api/single_class' },
  'adminSchedule.update': { role: 'admin', rest: 'PUT /api/single_class' },
  'adminSchedule.cancelPreview': { role: 'admin', rest: 'GET /api/single_class/{id}/cancel_preview' },
  'adminSchedule.cancel': { role: 'admin', rest: 'POST /api/single_class/{id}/cancel' },
  'adminSchedule.repeat': { role: 'admin', rest: 'POST /api/single_class/repeat' },
  'adminSchedule.substitute': { role: 'admin', rest: 'POST /api/single_class/substitute' },
  'adminSchedule.seriesCancelPreview': { role: 'admin', rest: 'GET /api/single_class_series/{class_series_id}/cancel_preview' },
  'adminSchedule.seriesCancel': { role: 'admin', rest: 'POST /api/single_class_series/cancel' },
  'reports.coachPay': { role: 'admin', rest: 'GET /api/reports/coach_pay' },
  'coachPayRules.list': { role: 'admin', rest: 'GET /api/coach_pay_rules' },
  'coachPayRules.save': { role: 'admin', rest: 'POST /api/coach_pay_rules' },
  'coachPayRules.remove': { role: 'admin', rest: 'DELETE /api/coach_pay_rules/{id}' },
  'reports.attendance': { role: 'admin', rest: 'GET /api/reports/attendance' },
  'reports.sales': { role: 'admin', rest: 'GET /api/reports/sales' },
  'reports.memberships': { role: 'admin', rest: 'GET /api/reports/memberships' },
  'reports.noShows': { role: 'admin', rest: 'GET /api/reports/no_shows' },
  'reports.customers': { role: 'admin', rest: 'GET /api/reports/customers' },
  'reports.cashUp': { role: 'admin', rest: 'GET /api/reports/cash_up' },
  'reports.exportCsv': { role: 'admin', rest: null },
  // The customers' ARCO requests and their answers (a cancellation anonymises).
  'privacy.requests': { role: 'admin', rest: 'GET /api/privacy_requests' },
  'privacy.answerRequest': { role: 'admin', rest: 'PUT /api/privacy_requests' },
  // Customers brought over from another system's CSV: the dry run and the real run.
  'customerImport.customers': { role: 'admin', rest: 'POST /api/import/customers' },
  'customerImport.credits': { role: 'admin', rest: 'POST /api/import/credits' },
  'customerImport.bookings': { role: 'admin', rest: 'POST /api/import/bookings' },
  // Inviting the customers without a password to create one: the count and the run.
  'customerInvitations.preview': { role: 'admin', rest: 'GET /api/import/invitations' },
  'customerInvitations.send': { role: 'admin', rest: 'POST /api/import/invitations' },
  'outbox.list': { role: 'admin', rest: 'GET /api/outbox' },
  'outbox.retry': { role: 'admin', rest: 'POST /api/outbox/{id}/retry' },
  // The studio's invoices and its PAC account (the key is written, never shown back).
  'cfdi.list': { role: 'admin', rest: 'GET /api/cfdi' },
  'cfdi.pac': { role: 'admin', rest: 'GET /api/cfdi/pac' },
  'cfdi.updatePac': { role: 'admin', rest: 'PUT /api/cfdi/pac' },
  'messaging.settings': { role: 'admin', rest: 'GET /api/messaging/settings' },
  'messaging.updateSettings': { role: 'admin', rest: 'PUT /api/messaging/settings' },
  'messaging.sendTest': { role: 'admin', rest: 'POST /api/messaging/test' },
  // A new studio's first run: its steps, a step left for later, the portal opened or closed (decision 129).
  'setup.status': { role: 'admin', rest: 'GET /api/setup' },
  'setup.skipStep': { role: 'admin', rest: 'PUT /api/setup/steps/{step}' },
  'setup.publish': { role: 'admin', rest: 'PUT /api/setup/publication' },
  'setup.documentTemplates': { role: 'admin', rest: 'POST /api/setup/document_templates' },
  'setup.checkCardPayments': { role: 'admin', rest: 'POST /api/setup/payments/check' },
  'activity.list': { role: 'admin', rest: 'GET /api/activity' },
  'activity.staff': { role: 'admin', rest: 'GET /api/activity/staff' },
};

export interface RouteAccess {
  role: RequiredRole;
  /** The body the access test sends (POST, PUT) when an empty one would be refused before the guard is reached. */
  body?: Record<string, unknown>;
}

/**
 * Routes of /api that are not a procedure's own REST route: plain Fastify
 * routes (uploads, the Stripe webhook, the calendar feed, the one-click stop)
 * and the previous admin panel's paths (decision 033), which call procedures
 * through a caller. Keyed as in /api/openapi.json; `{id}` is sent as an id no
 * row has.
 */
export const routeAccess: Record<string, RouteAccess> = {
  // ---------- plain Fastify routes ----------
  // Uploads: any customer stores their own files (a quota per role); videos are staff's (decision 046).
  'POST /api/files': { role: 'customer' },
  'POST /api/files/s3': { role: 'customer' },
  'POST /api/files/video': { role: 'staff' },
  // Signed by Stripe (Stripe-Signature), not by a token; served only when Stripe is configured.
  'POST /api/webhooks/stripe': { role: 'public' },
  // The private calendar feed: its random token in the path is the credential.
  'GET /api/calendar/{file}': { role: 'public' },
  // The e-mails' one-click stop (RFC 8058): the stop token is the credential.
  'GET /api/messages/one-click': { role: 'public' },
  'POST /api/messages/one-click': { role: 'public' },

  // ---------- the previous admin panel's paths ----------
  // Reports.
  'GET /api/analytics/customers': { role: 'admin' },
  'GET /api/analytics/purchases': { role: 'admin' },
  'GET /api/analytics/income': { role: 'admin' },
  'GET /api/analytics/instructors': { role: 'admin' },
  'GET /api/analytics/monthly': { role: 'admin' },
  'GET /api/analytics/reservations': { role: 'admin' },
  // What the product does not have answers 404 to anyone: nothing behind it.
  'GET /api/analytics/videos': { role: 'public' },
  'GET /api/circuits': { role: 'public' },
  'POST /api/circuits': { role: 'public' },
  'PUT /api/circuits': { role: 'public' },
  'DELETE /api/circuits/{id}': { role: 'public' },
  'POST /api/customer/circuit': { role: 'public' },
  'POST /api/customer/redeem': { role: 'public' },
  // The schedule (public, as schedule.list), a customer's own reservations, and a class with the caller's reservations in it (all of them for staff).
  'GET /api/single_class/admin': { role: 'optional' },
  'GET /api/single_class/myreservations': { role: 'customer' },
  // A class with its roster: the panel's attendance list, reception's and the owner's.
  'GET /api/single_class/admin/{id}': { role: 'staff' },
  // A coach's photo by its file id (a redirect; any other file is 404), as public as the coach.
  'GET /api/adjuntos/{id}': { role: 'public' },
  // Bookings as reservations.create/update/remove: a customer's own; staff's for anyone.
  'POST /api/single_class/reservation': { role: 'customer' },
  'PUT /api/single_class/reservation': { role: 'customer' },
  'POST /api/single_class/attend': { role: 'customer' },
  'POST /api/single_class/payment': { role: 'customer' },
  'POST /api/single_class/asistente': { role: 'customer' },
  'DELETE /api/single_class/asistente/{id}': { role: 'customer' },
  'POST /api/class_reservations/attend/{id}': { role: 'customer' },
  'DELETE /api/class_reservations/admin/{id}': { role: 'customer' },
  // Cancelling a class is the owner's (adminSchedule.cancel).
  'DELETE /api/single_class/{id}': { role: 'admin' },
  // Coaches are public (instructors.list); editing them is the owner's.
  'GET /api/instructors/admin/all': { role: 'optional' },
  'PUT /api/instructors': { role: 'admin' },
  // Credits given at the desk (credits.grant).
  'PUT /api/customer/giveClasses': { role: 'staff' },
  'POST /api/customer/resetPasswordLink': { role: 'admin' },
  'GET /api/class_packages/admin/especiales': { role: 'admin' },
  // Accounts and their roles: changing a role is the owner's.
  'GET /api/users/admin/all': { role: 'admin' },
  'POST /api/users': { role: 'admin' },
  'PUT /api/users': { role: 'admin', body: { user_id: 2_147_483_647, role: 'manager' } },
  'DELETE /api/users/{id}': { role: 'admin' },
  // Favourites under their old name.
  'GET /api/favoritos': { role: 'customer' },
  'POST /api/favoritos': { role: 'customer' },
  'DELETE /api/favoritos/{id}': { role: 'customer' },
};
