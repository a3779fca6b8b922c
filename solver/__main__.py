from solver.cli import run

run()
