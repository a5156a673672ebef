from companion.cli import main

if __name__ == "__main__":
    main(prog_name="companion")  # not "python -m companion", which click would guess
