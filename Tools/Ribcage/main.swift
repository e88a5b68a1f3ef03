import RibcageTool

RibcageCommand.main()
