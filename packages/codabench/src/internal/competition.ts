/**
 * @internal competition.yaml's value for a bundle: the tasks, the phases and their dates
 * (development, test and, sealed, Scoring), the site's pages and the one leaderboard.
 */
import type { Registry } from "@stseval/formats"
import { Effect } from "effect"
import type { Options } from "../Bundle.js"
import * as CompetitionYaml from "../CompetitionYaml.js"
import type * as Scores from "../Scores.js"

const DAY = 24 * 60 * 60 * 1000
const startOfDay = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()))

/**
 * The competition for `edition`'s `board`: `dev`, with a development phase; `sealed`, with a
 * Scoring phase; `kits`, each phase's starting kit. Fails with what to change when the dates
 * given do not follow each other.
 */
export const competition = (
  edition: Registry.TaskEdition,
  board: Scores.Board,
  options: Options,
  shape: { readonly dev: boolean; readonly sealed: boolean; readonly kits: { readonly dev?: string; readonly test?: string }; readonly dockerImage: string }
): Effect.Effect<CompetitionYaml.Competition, string> =>
  Effect.gen(function* () {
    const { dev, sealed, kits, dockerImage } = shape
    // Dates: development, then test, each ending before the next starts (Codabench requires it).
    const now = startOfDay(options.now ?? new Date())
    const testStart = options.testStart ?? new Date((options.devStart ?? now).getTime() + 61 * DAY)
    // Without a start, the development phase opens today, or 60 days before the test phase when
    // today is too late for that.
    const devStart = options.devStart ?? (dev ? (now.getTime() < testStart.getTime() - DAY ? now : new Date(testStart.getTime() - 60 * DAY)) : undefined)
    const testEnd = options.testEnd ?? new Date(testStart.getTime() + 14 * DAY - 1000)
    const devEnd = new Date(testStart.getTime() - 1000)
    if (devStart !== undefined && devStart.getTime() >= devEnd.getTime()) return yield* Effect.fail("the development phase must start before the test phase")
    if (testEnd.getTime() <= testStart.getTime()) return yield* Effect.fail("the test phase must end after it starts")
    const scoringStart = options.scoringStart ?? new Date(testEnd.getTime() + 2 * DAY)
    if (sealed && scoringStart.getTime() <= testEnd.getTime()) return yield* Effect.fail("the scoring phase must start after the test phase ends")

    const limit = options.executionTimeLimit ?? 600
    const testTask = dev ? 1 : 0
    const tasks: Array<CompetitionYaml.Task> = [
      ...(dev
        ? [{ index: 0, name: `${edition.id} development`, description: "scores the development gold", scoring_program: "scoring_program", reference_data: "reference_data_dev" }]
        : []),
      { index: testTask, name: `${edition.id} test`, description: "scores the test gold", scoring_program: "scoring_program", reference_data: "reference_data_test" }
    ]
    const phases: Array<CompetitionYaml.Phase> = [
      ...(dev && devStart !== undefined
        ? [
            {
              index: 0,
              name: "Development",
              description: "Submissions are scored against the development data.",
              start: CompetitionYaml.formatDateTime(devStart),
              end: CompetitionYaml.formatDateTime(devEnd),
              max_submissions: 100,
              max_submissions_per_day: 5,
              execution_time_limit: limit,
              ...(kits.dev !== undefined ? { starting_kit: kits.dev } : {}),
              tasks: [0]
            }
          ]
        : []),
      {
        index: dev ? 1 : 0,
        name: "Test",
        description: sealed
          ? `The test gold is sealed: each submission is checked and told whether it is valid, and scored when the phase closes (in the Scoring phase); at most ${edition.runLimit} per participant.`
          : `Submissions are scored against the test data on upload (a live leaderboard: the test gold is in this phase's reference data, which any participant can download); at most ${edition.runLimit} per participant.`,
        start: CompetitionYaml.formatDateTime(testStart),
        end: CompetitionYaml.formatDateTime(testEnd),
        max_submissions: edition.runLimit,
        max_submissions_per_day: edition.runLimit,
        execution_time_limit: limit,
        ...(kits.test !== undefined ? { starting_kit: kits.test } : {}),
        tasks: [testTask]
      },
      // Sealed: the test phase's finished submissions (a valid sealed one finishes, with an
      // empty scores.json, and is on the leaderboard) are moved here and run again when this
      // phase starts (`do_phase_migrations` in src/apps/competitions/tasks.py, every 300 s
      // (CELERY_BEAT_SCHEDULE, src/settings/base.py); `Competition.apply_phase_migration` in
      // src/apps/competitions/models.py, c7dbc756), on the same task: once the organiser has put
      // the unsealed reference data on it, they are scored against the test gold. Codabench
      // cannot close a phase to submissions (0 means no limit: `has_max_submissions` in
      // src/apps/competitions/unpackers/v2.py), hence one per participant.
      ...(sealed
        ? [
            {
              index: dev ? 2 : 1,
              name: "Scoring",
              description:
                "Send nothing here: when this phase starts, the test phase's submissions are moved here and scored against the test gold, and this phase's leaderboard is the test leaderboard (a submission sent here is after the deadline).",
              start: CompetitionYaml.formatDateTime(scoringStart),
              max_submissions: 1,
              max_submissions_per_day: 1,
              execution_time_limit: limit,
              auto_migrate_to_this_phase: true,
              tasks: [testTask]
            }
          ]
        : [])
    ]
    return {
      version: 2,
      title: options.title ?? (board.name === "official" ? edition.title : `${edition.title}: ${board.name}`).slice(0, 256),
      description: edition.description ?? edition.title,
      image: "logo.png",
      terms: "terms.md",
      docker_image: dockerImage,
      enable_detailed_results: true,
      show_detailed_results_in_submission_panel: true,
      // Only hides the leaderboard's link: `get_detail_result` (src/apps/api/views/submissions.py,
      // c7dbc756) serves any submission's detailed results to every approved participant, and to
      // anyone once the competition is published. What the page holds is fit for them (see
      // DetailedResults.Plot).
      show_detailed_results_in_leaderboard: false,
      make_programs_available: true,
      make_input_data_available: false,
      pages: [
        { title: "Overview", file: "pages/overview.md" },
        { title: "Evaluation", file: "pages/evaluation.md" },
        { title: "Submitting", file: "pages/submitting.md" }
      ],
      phases,
      tasks,
      leaderboards: [
        {
          index: 0,
          title: "Results",
          key: "main",
          // Every finished submission is listed: the papers report every run of a team.
          submission_rule: "Force_Latest_Multiple",
          primary_index: board.primary,
          columns: board.columns.map((c, index) => ({ title: c.title, key: c.key, index, sorting: c.sorting, precision: c.precision }))
        }
      ]
    }
  })
