import sys

from mafiatab.cli import main

sys.exit(main())
