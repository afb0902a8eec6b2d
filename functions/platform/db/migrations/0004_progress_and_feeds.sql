CREATE TABLE "course_progress" (
	"user_id" uuid NOT NULL,
	"course_slug" text NOT NULL,
	"last_lesson_id" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "course_progress_user_id_course_slug_pk" PRIMARY KEY("user_id","course_slug")
);
--> statement-breakpoint
CREATE TABLE "lesson_completions" (
	"user_id" uuid NOT NULL,
	"course_slug" text NOT NULL,
	"lesson_id" text NOT NULL,
	"completed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lesson_completions_user_id_course_slug_lesson_id_pk" PRIMARY KEY("user_id","course_slug","lesson_id")
);
--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "feed_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "course_progress" ADD CONSTRAINT "course_progress_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_completions" ADD CONSTRAINT "lesson_completions_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;