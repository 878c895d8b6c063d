CREATE TABLE "renewal_reminders" (
	"subscription_id" text NOT NULL,
	"term_end" timestamp (3) with time zone NOT NULL,
	"kind" text NOT NULL,
	"owner_id" text NOT NULL,
	"job_key" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "renewal_reminders_subscription_id_term_end_kind_pk" PRIMARY KEY("subscription_id","term_end","kind")
);
--> statement-breakpoint
ALTER TABLE "renewal_reminders" ADD CONSTRAINT "renewal_reminders_owner_id_organizations_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "subscriptions_term_end_idx" ON "subscriptions" USING btree ("current_term_end");