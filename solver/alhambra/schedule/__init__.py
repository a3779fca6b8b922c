"""The schedule model of an Alhambra position (``schedule_relaxation``, issue 19): the time
of every move that matters, constrained by conditions every winning line meets, solved by
CP-SAT (OR-Tools). No schedule means no winning line: the position is lost (the proof:
``SAFE_SCHEDULE_RELAXATION`` in ``solver.alhambra.flags``). A schedule is also read back
as a line of play and replayed on the reference engine (``replay_schedule``): where it plays
to a win, the position is won; where not, the moves up to the first it refuses are a lead
(``schedule_lead``), from which the driver may search for wins.

With reinforcement (``schedule_refills``, proof ``SAFE_SCHEDULE_REFILLS``) a card may be
*taken* from the stock into an empty reserve instead of being dealt; after its first take
the model leaves it free (its home time and that first stay in the reserve aside), and the
refills that a move emptying a reserve forces are stated for the stock's next card.

The package: ``model.py`` (the model object, its clock and shared literals), one module
per constraint group (``windows``, ``stays``, ``free_cards``, ``forced_refills``,
``foundations``, ``waste_order``, ``redeal``, ``bases``), ``build.py`` (the groups in
order), ``readback.py`` (a solution as moves) and ``stages.py`` (the models solved in
turn, CP-SAT's limits).
"""

from solver.alhambra.schedule.build import build_schedule
from solver.alhambra.schedule.model import SLOT, ScheduleModel
from solver.alhambra.schedule.readback import replay_schedule, schedule_lead
from solver.alhambra.schedule.stages import (DET_TIME, DET_TIME_REFILLS, DET_TIME_REFILLS_TWO, DET_TIME_SKELETON,
                                             DET_TIME_SKELETON_ALONE, MODEL_CAPS, MODELS, cp_sat_solver,
                                             det_time_for, schedule_lost, solve_schedule, stage_limit, stages_for)

__all__ = ["DET_TIME", "DET_TIME_REFILLS", "DET_TIME_REFILLS_TWO", "DET_TIME_SKELETON", "DET_TIME_SKELETON_ALONE",
           "MODELS", "MODEL_CAPS", "SLOT", "ScheduleModel", "build_schedule", "cp_sat_solver", "det_time_for",
           "replay_schedule", "schedule_lead", "schedule_lost", "solve_schedule", "stage_limit", "stages_for"]
