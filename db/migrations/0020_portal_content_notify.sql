-- The pre-rendered public pages are forgotten only when what they show changed and
-- the change committed: every write to a table the anonymous pages read (the studio's
-- settings, catalogue, schedule, coaches, pages, announcements and videos; a picture
-- shows through the row that names it) notifies 'portal_content', which each server process listens to. A
-- request that changes nothing the pages show (a 404, a booking, a sign-up) leaves
-- them as they are. NOTIFY is sent at commit and folded within a transaction.
CREATE FUNCTION portal_content_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('portal_content', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER app_config_portal_content AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "app_config" FOR EACH STATEMENT EXECUTE FUNCTION portal_content_changed();
--> statement-breakpoint
CREATE TRIGGER location_portal_content AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "location" FOR EACH STATEMENT EXECUTE FUNCTION portal_content_changed();
--> statement-breakpoint
CREATE TRIGGER class_category_portal_content AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "class_category" FOR EACH STATEMENT EXECUTE FUNCTION portal_content_changed();
--> statement-breakpoint
CREATE TRIGGER class_type_portal_content AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "class_type" FOR EACH STATEMENT EXECUTE FUNCTION portal_content_changed();
--> statement-breakpoint
CREATE TRIGGER instructor_portal_content AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "instructor" FOR EACH STATEMENT EXECUTE FUNCTION portal_content_changed();
--> statement-breakpoint
CREATE TRIGGER class_package_portal_content AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "class_package" FOR EACH STATEMENT EXECUTE FUNCTION portal_content_changed();
--> statement-breakpoint
CREATE TRIGGER class_package_type_portal_content AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "class_package_type" FOR EACH STATEMENT EXECUTE FUNCTION portal_content_changed();
--> statement-breakpoint
CREATE TRIGGER payment_method_portal_content AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "payment_method" FOR EACH STATEMENT EXECUTE FUNCTION portal_content_changed();
--> statement-breakpoint
CREATE TRIGGER page_portal_content AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "page" FOR EACH STATEMENT EXECUTE FUNCTION portal_content_changed();
--> statement-breakpoint
CREATE TRIGGER announcement_portal_content AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "announcement" FOR EACH STATEMENT EXECUTE FUNCTION portal_content_changed();
--> statement-breakpoint
CREATE TRIGGER form_portal_content AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "form" FOR EACH STATEMENT EXECUTE FUNCTION portal_content_changed();
--> statement-breakpoint
CREATE TRIGGER form_field_portal_content AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "form_field" FOR EACH STATEMENT EXECUTE FUNCTION portal_content_changed();
--> statement-breakpoint
CREATE TRIGGER custom_field_portal_content AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "custom_field" FOR EACH STATEMENT EXECUTE FUNCTION portal_content_changed();
--> statement-breakpoint
CREATE TRIGGER single_class_portal_content AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "single_class" FOR EACH STATEMENT EXECUTE FUNCTION portal_content_changed();
--> statement-breakpoint
CREATE TRIGGER single_class_instructor_portal_content AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "single_class_instructor" FOR EACH STATEMENT EXECUTE FUNCTION portal_content_changed();
--> statement-breakpoint
CREATE TRIGGER single_class_tag_portal_content AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "single_class_tag" FOR EACH STATEMENT EXECUTE FUNCTION portal_content_changed();
--> statement-breakpoint
CREATE TRIGGER tag_portal_content AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "tag" FOR EACH STATEMENT EXECUTE FUNCTION portal_content_changed();
--> statement-breakpoint
CREATE TRIGGER video_portal_content AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "video" FOR EACH STATEMENT EXECUTE FUNCTION portal_content_changed();
--> statement-breakpoint
CREATE TRIGGER video_type_portal_content AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "video_type" FOR EACH STATEMENT EXECUTE FUNCTION portal_content_changed();
--> statement-breakpoint
CREATE TRIGGER video_tag_portal_content AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "video_tag" FOR EACH STATEMENT EXECUTE FUNCTION portal_content_changed();
--> statement-breakpoint
CREATE TRIGGER video_program_portal_content AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "video_program" FOR EACH STATEMENT EXECUTE FUNCTION portal_content_changed();
--> statement-breakpoint
CREATE TRIGGER program_portal_content AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "program" FOR EACH STATEMENT EXECUTE FUNCTION portal_content_changed();
