from ocgkb.cli.main import run

run()
