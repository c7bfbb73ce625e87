from ocgkb.cli.main import main

main()
